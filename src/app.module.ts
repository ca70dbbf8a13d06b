import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { ClusterModule } from './infrastructure/cluster/cluster.module';
import { Authenticator } from './access/authenticator';
import { RateLimitingModule } from './rate-limiting/rate-limiting.module';
import { CREDENTIAL_REVOCATIONS, CredentialsModule } from './access/credentials/credentials.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import {
  auditSettings,
  authSettings,
  callStreamSettings,
  overviewCacheSettings,
  clusterSettings,
  consoleSettings,
  exportSettings,
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
import { CALL_STREAM_SETTINGS } from './analytics/live/call-stream.settings';
import { OVERVIEW_CACHE_SETTINGS } from './analytics/read/overview-cache.settings';
import { ReadAheadRoutes } from './access/read-ahead.routes';
import { WRITE_SETTINGS } from './platform/config/write.settings';
import { RequestGate } from './access/request-gate';
import { APP_CONFIG, AppConfig } from './platform/config/app-config';
import { HealthController } from './access/health.controller';
import { AllExceptionsFilter } from './platform/http/all-exceptions.filter';
import { RouteTable } from './platform/http/route-table';
import { AppLogger } from './platform/logging/logging';
import { OpenApiController, OpenApiDocument } from './platform/openapi/openapi.controller';
import { Clock, CLOCK, systemClock } from './shared/clock';
import { WebhooksModule } from './webhooks/webhooks.module';
import { AuditModule } from './audit/audit.module';
import { RejectionsModule } from './rejections/rejections.module';
import { ConsoleModule } from './console/console.module';
import { ReadModelsModule } from './read-models/read-models.module';
import { AccountsModule } from './accounts/accounts.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { KEY_REVOCATIONS } from './api-keys/write/key-revocations.port';
import { TrunksModule } from './trunks/trunks.module';
import { ACTOR_NAMES } from './trunks/read/actor-names.port';
import { ApiKeyNames } from './api-keys/read/api-key-names';
import { CallsModule } from './calls/calls.module';
import { AnalyticsModule } from './analytics/analytics.module';
import { ExportsModule } from './exports/exports.module';

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
        { provide: CALL_STREAM_SETTINGS, useValue: callStreamSettings(config) },
        { provide: OVERVIEW_CACHE_SETTINGS, useValue: overviewCacheSettings(config) },
      ],
      exports: [
        APP_CONFIG,
        CLOCK,
        AppLogger,
        WRITE_SETTINGS,
        READ_SETTINGS,
        PROJECTION_SETTINGS,
        AUTH_SETTINGS,
        CALL_STREAM_SETTINGS,
        OVERVIEW_CACHE_SETTINGS,
      ],
    };
    const infrastructure = InfrastructureModule.forRoot(infrastructureSettings(config), options.logger);
    const rateLimiting = RateLimitingModule.forRoot(rateLimitSettings(config), infrastructure);
    const credentials = CredentialsModule.forRoot(rateLimitSettings(config), rateLimiting, infrastructure);
    const audit = AuditModule.forRoot(auditSettings(config));
    const webhooks = WebhooksModule.forRoot(webhookSettings(config));
    return {
      module: AppModule,
      imports: [
        configModule,
        CqrsModule.forRoot(),
        infrastructure,
        ClusterModule.forRoot(clusterSettings(config), options.logger),
        ReadModelsModule,
        rateLimiting,
        credentials,
        IdempotencyModule.forRoot(idempotencySettings(config), infrastructure),
        // The features, each wired here to what it uses of other folders.
        AccountsModule,
        ApiKeysModule.forRoot({
          imports: [credentials, rateLimiting],
          providers: [{ provide: KEY_REVOCATIONS, useExisting: CREDENTIAL_REVOCATIONS }],
        }),
        TrunksModule.forRoot({ imports: [audit], providers: [{ provide: ACTOR_NAMES, useClass: ApiKeyNames }] }),
        CallsModule.forRoot({ imports: [webhooks, AnalyticsModule] }),
        AnalyticsModule,
        webhooks,
        audit,
        RejectionsModule.forRoot({ imports: [AnalyticsModule] }),
        ExportsModule.forRoot(exportSettings(config)),
        ConsoleModule.forRoot(consoleSettings(config)),
      ],
      controllers: [HealthController, OpenApiController],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        RouteTable,
        OpenApiDocument,
        Authenticator,
        RequestGate,
        ReadAheadRoutes,
      ],
    };
  }
}
