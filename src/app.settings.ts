import type { ClusterSettings, InfrastructureSettings } from './infrastructure/infrastructure.settings';
import type { ExportSettings } from './exports/exports.settings';
import { AppConfig, readModelNamespace } from './platform/config/app-config';
import type { AuthSettings } from './platform/config/auth.settings';
import type { AuditSettings } from './audit/audit.settings';
import type { CallStreamSettings } from './analytics/live/call-stream.settings';
import type { OverviewCacheSettings } from './analytics/read/overview-cache.settings';
import type { ConsoleSettings } from './console/console.settings';
import type { ProjectionSettings } from './eventsourcing/projection.settings';
import type { RateLimitSettings } from './rate-limiting/rate-limiting.module';
import { IDEMPOTENCY_DEFAULTS, IdempotencySettings } from './idempotency/idempotency.settings';
import type { ReadSettings } from './trunks/read/read.settings';
import type { WebhookSettings } from './webhooks/webhooks.settings';
import type { WriteSettings } from './platform/config/write.settings';

/*
 * The composition root cuts the configuration, validated once at start (loadConfig), into the
 * slice each module needs: a module sees only its own settings, as plain typed values.
 */

export function infrastructureSettings(config: AppConfig): InfrastructureSettings {
  return {
    redisUrl: config.redisUrl,
    redisCommandTimeoutMs: config.redisCommandTimeoutMs,
    readModelNamespace: readModelNamespace(config),
    eventStoreUrl: config.eventStoreUrl,
    eventStoreSchema: config.eventStoreSchema,
    dataDir: config.dataDir,
    masterKey: config.masterKey,
    clickhouseUrl: config.clickhouseUrl,
    clickhouseCluster: config.clickhouseCluster,
    providers: {
      mode: config.providerValidation,
      openaiApiBase: config.openaiApiBase,
      elevenlabsApiBase: config.elevenlabsApiBase,
      timeoutMs: config.providerTimeoutMs,
      probeCustomEndpoints: config.providerProbeCustomEndpoints,
    },
  };
}

export function clusterSettings(config: AppConfig): ClusterSettings {
  return { redisUrl: config.redisUrl, namespace: config.redisNamespace };
}

export function rateLimitSettings(config: AppConfig): RateLimitSettings {
  return {
    perMinute: config.rateLimitPerMinute,
    gatewayPerMinute: config.gatewayRateLimitPerMinute,
    gatewayUnknownPerMinute: config.gatewayUnknownLookupsPerMinute,
    namespace: config.redisNamespace,
    readModelNamespace: readModelNamespace(config),
    credentialCacheTtlMs: config.credentialCacheTtlMs,
    leaseFraction: config.rateLimitLeasePercent / 100,
  };
}

export function idempotencySettings(config: AppConfig): IdempotencySettings {
  return { namespace: config.redisNamespace, ...IDEMPOTENCY_DEFAULTS };
}

export function writeSettings(config: AppConfig): WriteSettings {
  return { sipDomain: config.sipDomain, appEnv: config.appEnv };
}

export function readSettings(config: AppConfig): ReadSettings {
  return { sipDomain: config.sipDomain, sipRoutes: config.sipRoutes };
}

export function projectionSettings(config: AppConfig): ProjectionSettings {
  return {
    sipDomain: config.sipDomain,
    readModelNamespace: readModelNamespace(config),
    consistencyTimeoutMs: config.consistencyTimeoutMs,
    batchSize: config.projectionBatchSize,
    recordCacheTtlMs: config.recordCacheTtlMs,
  };
}

export function callStreamSettings(config: AppConfig): CallStreamSettings {
  return {
    pollMs: config.callStreamPollMs,
    heartbeatMs: config.callStreamHeartbeatMs,
    maxBufferBytes: config.callStreamMaxBufferBytes,
  };
}

export function overviewCacheSettings(config: AppConfig): OverviewCacheSettings {
  return { ttlMs: config.overviewCacheTtlMs };
}

export function authSettings(config: AppConfig): AuthSettings {
  return { adminApiKey: config.adminApiKey, appEnv: config.appEnv };
}

export function webhookSettings(config: AppConfig): WebhookSettings {
  return {
    allowPrivate: config.webhookAllowPrivate,
    timeoutMs: config.webhookTimeoutMs,
    retryScheduleMs: config.webhookRetryScheduleMs,
    pollIntervalMs: config.webhookPollIntervalMs,
    concurrency: config.webhookConcurrency,
    caFile: config.webhookCaFile,
    deliveryRetentionMs: config.webhookDeliveryRetentionMs,
    retentionSweepMs: config.webhookRetentionSweepMs,
    alertEvaluationIntervalMs: config.alertEvaluationIntervalMs,
    consistencyTimeoutMs: config.consistencyTimeoutMs,
  };
}

export function exportSettings(config: AppConfig): ExportSettings {
  return { dir: config.exportDir, retentionMs: config.exportRetentionMs, pollIntervalMs: config.exportPollIntervalMs };
}

export function consoleSettings(config: AppConfig): ConsoleSettings {
  return { dir: config.consoleDir };
}

export function auditSettings(config: AppConfig): AuditSettings {
  return { checkpointIntervalMs: config.auditCheckpointIntervalMs };
}
