import type { ClusterSettings, InfrastructureSettings } from './infrastructure/infrastructure.settings';
import { AppConfig, readModelNamespace } from './platform/config/app-config';
import type { RateLimitSettings } from './rate-limiting/rate-limiting.module';

/*
 * The composition root cuts the configuration, validated once at start (loadConfig), into the
 * slice each module needs: a module sees only its own settings, as plain typed values.
 */

export function infrastructureSettings(config: AppConfig): InfrastructureSettings {
  return {
    redisUrl: config.redisUrl,
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
    namespace: config.redisNamespace,
    readModelNamespace: readModelNamespace(config),
  };
}
