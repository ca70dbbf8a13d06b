import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { ClusterModule } from './infrastructure/cluster/cluster.module';
import { CLUSTER, ClusterServices } from './infrastructure/cluster/cluster.port';
import { AdminBootstrap } from './write/api-keys/admin-key.bootstrap';
import { Authenticator } from './platform/auth/authenticator';
import { CREDENTIAL_REVOCATIONS, RateLimitingModule } from './rate-limiting/rate-limiting.module';
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
import { AUTH_SETTINGS } from './platform/auth/auth.settings';
import { PROJECTION_SETTINGS } from './projections/projection.settings';
import { READ_SETTINGS } from './read/read.settings';
import { ReadAheadRoutes } from './read/read-ahead.routes';
import { WRITE_SETTINGS } from './write/write.settings';
import { RequestGate } from './platform/auth/request-gate';
import { APP_CONFIG, AppConfig } from './platform/config/app-config';
import { HealthController } from './platform/health/health.controller';
import { AllExceptionsFilter } from './platform/http/all-exceptions.filter';
import { RouteTable } from './platform/http/route-table';
import { AppLogger } from './platform/logging/logging';
import { OpenApiController, OpenApiDocument } from './platform/openapi/openapi.controller';
import { ReadModels } from './projections/read-models.service';
import { GetAccountHandler, ListAccountsHandler } from './read/accounts/accounts.queries';
import { AccountsReadController } from './read/accounts/http/accounts.controller';
import { ListApiKeysHandler } from './read/api-keys/api-keys.queries';
import { ApiKeysReadController } from './read/api-keys/http/api-keys.controller';
import { CLOCK, systemClock } from './shared/clock';
import { CreateAccountHandler } from './write/accounts/create-account.handler';
import { AccountsWriteController } from './write/accounts/http/accounts.controller';
import { IssueApiKeyHandler, RevokeApiKeyHandler } from './write/api-keys/api-key.handlers';
import { KEY_REVOCATIONS } from './write/api-keys/key-revocations.port';
import { ApiKeysWriteController } from './write/api-keys/http/api-keys.controller';
import { CommandRunner } from './write/command-runner';
import { READ_YOUR_WRITES } from './write/read-your-writes.port';
import { GatewayController } from './read/gateway/http/gateway.controller';
import { LookupGatewayTrunkHandler } from './read/gateway/gateway.queries';
import { GetTrunkAsOfHandler, GetTrunkHistoryHandler } from './read/trunk-history/trunk-history.queries';
import { ListTrunksAsOfHandler } from './read/trunk-history/trunks-as-of.query';
import { TrunksReadController } from './read/trunks/http/trunks.controller';
import { ClickHouseTrunkStats } from './read/trunks/clickhouse-trunk-stats';
import { CALL_RECORD_WRITER, CallIngestion } from './ingestion/call-ingestion.service';
import { CallRecordWriter, sharedWriterOptions } from './ingestion/call-record.writer';
import { IngestController } from './ingestion/http/ingest.controller';
import { CLICKHOUSE, ClickHouseExecutor } from './infrastructure/clickhouse/clickhouse.port';
import { CallsController } from './read/calls/http/calls.controller';
import { GetCallHandler, ListCallsHandler } from './read/calls/calls.queries';
import { AnalyticsController } from './read/analytics/http/analytics.controller';
import { GetAnalyticsOverviewHandler } from './read/analytics/analytics.queries';
import { IngestionLifecycle } from './ingestion/ingestion.lifecycle';
import { TRUNK_STATS_READER } from './read/trunks/trunk-stats.port';
import { GetTrunkHandler, ListTrunksHandler } from './read/trunks/trunk.queries';
import { Reservations } from './write/reservations/reservation.service';
import { CreateTrunkHandler } from './write/trunks/create-trunk.handler';
import { DeleteTrunkHandler } from './write/trunks/delete-trunk.handler';
import { GatewayAgentController, TrunksWriteController } from './write/trunks/http/trunks.controller';
import { ReadAgentCredentialsHandler } from './write/trunks/read-agent-credentials.handler';
import { RotateSipPasswordHandler } from './write/trunks/rotate-sip-password.handler';
import { TrunkSupport } from './write/trunks/trunk-support';
import { UpdateTrunkHandler } from './write/trunks/update-trunk.handler';
import { WebhooksModule } from './webhooks/webhooks.module';
import { AuditModule } from './audit/audit.module';
import { RejectionsModule } from './rejections/rejections.module';
import { ListGatewayChangesHandler } from './read/gateway/gateway-changes.query';
import { ConsoleModule } from './console/console.module';

export interface AppModuleOptions {
  /** The root logger (app.factory makes it; tests give it a stream they read). */
  logger: Logger;
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: AppModuleOptions): DynamicModule {
    const configModule: DynamicModule = {
      module: class ConfigModule {},
      global: true,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: CLOCK, useValue: systemClock },
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
    return {
      module: AppModule,
      imports: [
        configModule,
        CqrsModule.forRoot(),
        infrastructure,
        ClusterModule.forRoot(clusterSettings(config), options.logger),
        RateLimitingModule.forRoot(rateLimitSettings(config), infrastructure),
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
        AnalyticsController,
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        RouteTable,
        OpenApiDocument,
        CommandRunner,
        ReadModels,
        { provide: READ_YOUR_WRITES, useExisting: ReadModels },
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
        IngestionLifecycle,
        ListCallsHandler,
        GetCallHandler,
        GetAnalyticsOverviewHandler,
        CreateTrunkHandler,
        UpdateTrunkHandler,
        RotateSipPasswordHandler,
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
