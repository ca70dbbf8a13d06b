import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { ClusterModule } from './infrastructure/cluster/cluster.module';
import { CLUSTER, ClusterServices } from './infrastructure/cluster/cluster.port';
import { AdminBootstrap } from './api-keys/write/admin-key.bootstrap';
import { Authenticator } from './access/authenticator';
import { RateLimitingModule } from './rate-limiting/rate-limiting.module';
import { CREDENTIAL_REVOCATIONS, CredentialsModule } from './access/credentials/credentials.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import {
  auditSettings,
  authSettings,
  clusterSettings,
  consoleSettings,
  idempotencySettings,
  infrastructureSettings,
  projectionSettings,
  rateLimitSettings,
  readSettings,
  webhookSettings,
  writeSettings,
} from './app.settings';
import { AUTH_SETTINGS } from './platform/config/auth.settings';
import { PROJECTION_SETTINGS } from './eventsourcing/projection.settings';
import { READ_SETTINGS } from './trunks/read/read.settings';
import { ReadAheadRoutes } from './access/read-ahead.routes';
import { WRITE_SETTINGS } from './platform/config/write.settings';
import { RequestGate } from './access/request-gate';
import { APP_CONFIG, AppConfig } from './platform/config/app-config';
import { HealthController } from './access/health.controller';
import { AllExceptionsFilter } from './platform/http/all-exceptions.filter';
import { RouteTable } from './platform/http/route-table';
import { AppLogger } from './platform/logging/logging';
import { OpenApiController, OpenApiDocument } from './platform/openapi/openapi.controller';
import { ReadModels } from './read-models/read-models.service';
import { GetAccountHandler, ListAccountsHandler } from './accounts/read/accounts.queries';
import { AccountsReadController } from './accounts/http/accounts-read.controller';
import { ListApiKeysHandler } from './api-keys/read/api-keys.queries';
import { ApiKeysReadController } from './api-keys/http/api-keys-read.controller';
import { Clock, CLOCK, systemClock } from './shared/clock';
import { CreateAccountHandler } from './accounts/write/create-account.handler';
import { AccountsWriteController } from './accounts/http/accounts.controller';
import { IssueApiKeyHandler, RevokeApiKeyHandler } from './api-keys/write/api-key.handlers';
import { KEY_REVOCATIONS } from './api-keys/write/key-revocations.port';
import { ApiKeysWriteController } from './api-keys/http/api-keys.controller';
import { CommandRunner } from './eventsourcing/command-runner';
import { READ_YOUR_WRITES } from './eventsourcing/read-your-writes.port';
import { READ_MODEL_STATUS } from './eventsourcing/read-model-status.port';
import { GatewayController } from './trunks/http/gateway.controller';
import { LookupGatewayTrunkHandler } from './trunks/read/gateway.queries';
import { GetTrunkAsOfHandler, GetTrunkHistoryHandler } from './trunks/read/trunk-history.queries';
import { ListTrunksAsOfHandler } from './trunks/read/trunks-as-of.query';
import { TrunksReadController } from './trunks/http/trunks-read.controller';
import { ClickHouseTrunkStats } from './trunks/read/clickhouse-trunk-stats';
import { CALL_RECORD_WRITER, CallIngestion } from './calls/ingestion/call-ingestion.service';
import { CallRecordWriter, sharedWriterOptions } from './calls/ingestion/call-record.writer';
import { IngestController } from './calls/http/ingest.controller';
import { CLICKHOUSE, ClickHouseExecutor } from './infrastructure/clickhouse/clickhouse.port';
import { CallsController } from './calls/http/calls.controller';
import { CallChangesController } from './calls/http/call-changes.controller';
import { ListCallChangesHandler } from './calls/read/call-changes.queries';
import { GetCallHandler, ListCallsHandler } from './calls/read/calls.queries';
import { AnalyticsController } from './analytics/http/analytics.controller';
import { GetAnalyticsOverviewHandler } from './analytics/read/analytics.queries';
import { GetConcurrencyHandler } from './analytics/read/concurrency.queries';
import { TrunkHealthMonitor } from './analytics/health/trunk-health.monitor';
import { CALL_BATCH_OBSERVER } from './calls/ingestion/call-batch-listener.port';
import { IngestionLifecycle } from './calls/ingestion/ingestion.lifecycle';
import { TRUNK_STATS_READER } from './trunks/read/trunk-stats.port';
import { GetTrunkHandler, ListTrunksHandler } from './trunks/read/trunk.queries';
import { Reservations } from './trunks/write/reservation.service';
import { CreateTrunkHandler } from './trunks/write/create-trunk.handler';
import { DeleteTrunkHandler } from './trunks/write/delete-trunk.handler';
import { GatewayAgentController, TrunksWriteController } from './trunks/http/trunks.controller';
import { ReadAgentCredentialsHandler } from './trunks/write/read-agent-credentials.handler';
import { RotateSipPasswordHandler } from './trunks/write/rotate-sip-password.handler';
import { TrunkSupport } from './trunks/write/trunk-support';
import { UpdateTrunkHandler } from './trunks/write/update-trunk.handler';
import { ReportTrunkHealthHandler } from './trunks/write/report-trunk-health.handler';
import { WebhooksModule } from './webhooks/webhooks.module';
import { AuditModule } from './audit/audit.module';
import { RejectionsModule } from './rejections/rejections.module';
import { ListGatewayChangesHandler } from './trunks/read/gateway-changes.query';
import { ConsoleModule } from './console/console.module';

export interface AppModuleOptions {
  /** The root logger (app.factory makes it; tests give it a stream they read). */
  logger: Logger;
  /** The system clock unless given (tests move time instead of waiting for it). */
  clock?: Clock;
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: AppModuleOptions): DynamicModule {
    const configModule: DynamicModule = {
      module: class ConfigModule {},
      global: true,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: CLOCK, useValue: options.clock ?? systemClock },
        { provide: AppLogger, useValue: new AppLogger(options.logger) },
        // Each role's slice of the configuration; modules of their own get theirs in forRoot.
        { provide: WRITE_SETTINGS, useValue: writeSettings(config) },
        { provide: READ_SETTINGS, useValue: readSettings(config) },
        { provide: PROJECTION_SETTINGS, useValue: projectionSettings(config) },
        { provide: AUTH_SETTINGS, useValue: authSettings(config) },
      ],
      exports: [APP_CONFIG, CLOCK, AppLogger, WRITE_SETTINGS, READ_SETTINGS, PROJECTION_SETTINGS, AUTH_SETTINGS],
    };
    const infrastructure = InfrastructureModule.forRoot(infrastructureSettings(config), options.logger);
    const rateLimiting = RateLimitingModule.forRoot(rateLimitSettings(config), infrastructure);
    return {
      module: AppModule,
      imports: [
        configModule,
        CqrsModule.forRoot(),
        infrastructure,
        ClusterModule.forRoot(clusterSettings(config), options.logger),
        rateLimiting,
        CredentialsModule.forRoot(rateLimitSettings(config), rateLimiting, infrastructure),
        IdempotencyModule.forRoot(idempotencySettings(config), infrastructure),
        WebhooksModule.forRoot(webhookSettings(config)),
        AuditModule.forRoot(auditSettings(config)),
        RejectionsModule,
        ConsoleModule.forRoot(consoleSettings(config)),
      ],
      controllers: [
        HealthController,
        OpenApiController,
        AccountsWriteController,
        AccountsReadController,
        ApiKeysWriteController,
        ApiKeysReadController,
        TrunksWriteController,
        GatewayAgentController,
        TrunksReadController,
        GatewayController,
        IngestController,
        CallsController,
        CallChangesController,
        AnalyticsController,
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        RouteTable,
        OpenApiDocument,
        CommandRunner,
        ReadModels,
        { provide: READ_YOUR_WRITES, useExisting: ReadModels },
        { provide: READ_MODEL_STATUS, useExisting: ReadModels },
        { provide: KEY_REVOCATIONS, useExisting: CREDENTIAL_REVOCATIONS },
        Authenticator,
        RequestGate,
        ReadAheadRoutes,
        AdminBootstrap,
        CreateAccountHandler,
        ListAccountsHandler,
        GetAccountHandler,
        IssueApiKeyHandler,
        RevokeApiKeyHandler,
        ListApiKeysHandler,
        Reservations,
        TrunkSupport,
        { provide: TRUNK_STATS_READER, useClass: ClickHouseTrunkStats },
        {
          provide: CALL_RECORD_WRITER,
          inject: [CLICKHOUSE, CLUSTER],
          useFactory: (clickhouse: ClickHouseExecutor, cluster: ClusterServices | null) =>
            new CallRecordWriter(clickhouse, sharedWriterOptions(clickhouse, cluster)),
        },
        CallIngestion,
        TrunkHealthMonitor,
        { provide: CALL_BATCH_OBSERVER, useExisting: TrunkHealthMonitor },
        IngestionLifecycle,
        ListCallsHandler,
        ListCallChangesHandler,
        GetCallHandler,
        GetAnalyticsOverviewHandler,
        GetConcurrencyHandler,
        CreateTrunkHandler,
        UpdateTrunkHandler,
        RotateSipPasswordHandler,
        ReportTrunkHealthHandler,
        DeleteTrunkHandler,
        ReadAgentCredentialsHandler,
        ListTrunksHandler,
        GetTrunkHandler,
        GetTrunkHistoryHandler,
        GetTrunkAsOfHandler,
        ListTrunksAsOfHandler,
        LookupGatewayTrunkHandler,
        ListGatewayChangesHandler,
      ],
    };
  }
}
