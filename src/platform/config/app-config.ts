import 'reflect-metadata';
import { resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';
import { Type } from 'class-transformer';

/** Environment variables as decisions.md names them. A bad value stops start-up, naming it. */
class Environment {
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(65535) PORT?: number;
  @IsOptional() @IsString() HOST?: string;
  @IsOptional() @IsString() DATA_DIR?: string;
  @IsOptional() @IsIn(['live', 'test']) APP_ENV?: 'live' | 'test';
  @IsOptional() @Matches(/^sk_(live|test)_[A-Za-z0-9]{32}$/, { message: 'ADMIN_API_KEY must be sk_live_ or sk_test_ followed by 32 base62 characters' })
  ADMIN_API_KEY?: string;
  @IsOptional() @Matches(/^(postgres|postgresql|esdb|esdb\+discover|kurrentdb):\/\//, { message: 'EVENT_STORE_URL must start with postgres://, esdb:// or kurrentdb://' })
  EVENT_STORE_URL?: string;
  @IsOptional() @Matches(/^[a-z_][a-z0-9_]{0,62}$/, { message: 'EVENT_STORE_SCHEMA must be a lower-case SQL identifier' }) EVENT_STORE_SCHEMA?: string;
  @IsOptional() @Matches(/^https?:\/\//, { message: 'CLICKHOUSE_URL must be an http(s):// URL' }) CLICKHOUSE_URL?: string;
  @IsOptional() @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must start with redis:// or rediss://' }) REDIS_URL?: string;
  @IsOptional() @IsString() REDIS_NAMESPACE?: string;
  @IsOptional() @IsIn(['native', 'proxy']) TLS_MODE?: 'native' | 'proxy';
  @IsOptional() @IsString() TLS_CERT_FILE?: string;
  @IsOptional() @IsString() TLS_KEY_FILE?: string;
  @IsOptional() @Matches(/^[A-Za-z0-9.-]+$/, { message: 'SIP_DOMAIN must be a host name' }) SIP_DOMAIN?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) RATE_LIMIT_PER_MINUTE?: number;
  @IsOptional() @IsString() @MinLength(32, { message: 'MASTER_KEY must be at least 32 characters (base64 of 32 bytes)' }) MASTER_KEY?: string;
  @IsOptional() @IsIn(['live', 'format']) PROVIDER_VALIDATION?: 'live' | 'format';
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) @Max(60000) PROVIDER_TIMEOUT_MS?: number;
  @IsOptional() @IsIn(['true', 'false']) PROVIDER_PROBE_CUSTOM_ENDPOINTS?: string;
  @IsOptional() @IsString() OPENAI_API_BASE?: string;
  @IsOptional() @IsString() ELEVENLABS_API_BASE?: string;
  @IsOptional() @IsIn(['true', 'false']) WEBHOOK_ALLOW_PRIVATE?: string;
  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1024) BODY_LIMIT_BYTES?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) CONSISTENCY_TIMEOUT_MS?: number;
}

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  appEnv: 'live' | 'test';
  adminApiKey: string | null;
  eventStoreUrl: string | null;
  /** PostgreSQL schema of the event tables. */
  eventStoreSchema: string;
  clickhouseUrl: string | null;
  redisUrl: string | null;
  redisNamespace: string;
  tls: { mode: 'native' | 'proxy'; certFile: string | null; keyFile: string | null };
  sipDomain: string;
  rateLimitPerMinute: number;
  masterKey: string | null;
  providerValidation: 'live' | 'format';
  providerTimeoutMs: number;
  /** Live mode: open a WebSocket handshake with custom endpoints on create/PATCH. */
  providerProbeCustomEndpoints: boolean;
  openaiApiBase: string;
  elevenlabsApiBase: string;
  webhookAllowPrivate: boolean;
  logLevel: string;
  bodyLimitBytes: number;
  /** How long a 2xx write waits for its projections (read-your-writes). */
  consistencyTimeoutMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = plainToInstance(Environment, raw, { enableImplicitConversion: false });
  const errors = validateSync(parsed, { skipMissingProperties: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    throw new ConfigError(errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`));
  }
  const embedded = !parsed.EVENT_STORE_URL;
  if (!embedded && !parsed.MASTER_KEY) throw new ConfigError(['MASTER_KEY: required when EVENT_STORE_URL is set']);
  if ((parsed.TLS_CERT_FILE === undefined) !== (parsed.TLS_KEY_FILE === undefined)) {
    throw new ConfigError(['TLS_CERT_FILE/TLS_KEY_FILE: set both or neither']);
  }
  return {
    port: parsed.PORT ?? 8443,
    host: parsed.HOST ?? '0.0.0.0',
    dataDir: resolve(parsed.DATA_DIR ?? './.data'),
    appEnv: parsed.APP_ENV ?? 'live',
    adminApiKey: parsed.ADMIN_API_KEY ?? null,
    eventStoreUrl: parsed.EVENT_STORE_URL ?? null,
    eventStoreSchema: parsed.EVENT_STORE_SCHEMA ?? 'trunkline',
    clickhouseUrl: parsed.CLICKHOUSE_URL ?? null,
    redisUrl: parsed.REDIS_URL ?? null,
    redisNamespace: parsed.REDIS_NAMESPACE ?? 'tl:',
    tls: { mode: parsed.TLS_MODE ?? 'native', certFile: parsed.TLS_CERT_FILE ?? null, keyFile: parsed.TLS_KEY_FILE ?? null },
    sipDomain: parsed.SIP_DOMAIN ?? 'sip.trunkline.local',
    rateLimitPerMinute: parsed.RATE_LIMIT_PER_MINUTE ?? 6000,
    masterKey: parsed.MASTER_KEY ?? null,
    providerValidation: parsed.PROVIDER_VALIDATION ?? (embedded ? 'format' : 'live'),
    providerTimeoutMs: parsed.PROVIDER_TIMEOUT_MS ?? 5000,
    providerProbeCustomEndpoints: parsed.PROVIDER_PROBE_CUSTOM_ENDPOINTS === 'true',
    openaiApiBase: parsed.OPENAI_API_BASE ?? 'https://api.openai.com/v1',
    elevenlabsApiBase: parsed.ELEVENLABS_API_BASE ?? 'https://api.elevenlabs.io/v1',
    webhookAllowPrivate: parsed.WEBHOOK_ALLOW_PRIVATE === 'true',
    logLevel: parsed.LOG_LEVEL ?? 'info',
    bodyLimitBytes: parsed.BODY_LIMIT_BYTES ?? 1024 * 1024,
    consistencyTimeoutMs: parsed.CONSISTENCY_TIMEOUT_MS ?? 5000,
  };
}

export const APP_CONFIG = Symbol('AppConfig');

/**
 * Read models live under their own prefix, so a rebuild (which clears its namespace) never
 * touches rate-limit counters or key usage.
 */
export const readModelNamespace = (config: Pick<AppConfig, 'redisNamespace'>): string => `${config.redisNamespace}rm:`;
