import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import { Type } from 'class-transformer';

/** A sip:/sips: URI template; {trunk_id}, {account_id}, {sip_username}, {elevenlabs_agent_id} are filled per trunk. */
const SIP_ROUTE = /^sips?:([^\s"<>{}]|\{(trunk_id|account_id|sip_username|elevenlabs_agent_id)\})+$/;
const SIP_ROUTE_MESSAGE = (name: string) =>
  `${name} must be a sip: or sips: URI; placeholders: {trunk_id}, {account_id}, {sip_username}, {elevenlabs_agent_id}`;

/** Environment variables as decisions.md names them. A bad value stops start-up, naming it. */
class Environment {
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(65535) PORT?: number;
  @IsOptional() @IsString() HOST?: string;
  @IsOptional() @IsString() DATA_DIR?: string;
  @IsOptional() @IsIn(['live', 'test']) APP_ENV?: 'live' | 'test';
  @IsOptional()
  @Matches(/^sk_(live|test)_[A-Za-z0-9]{32}$/, {
    message: 'ADMIN_API_KEY must be sk_live_ or sk_test_ followed by 32 base62 characters',
  })
  ADMIN_API_KEY?: string;
  @IsOptional()
  @Matches(/^(postgres|postgresql|esdb|esdb\+discover|kurrentdb):\/\//, {
    message: 'EVENT_STORE_URL must start with postgres://, esdb:// or kurrentdb://',
  })
  EVENT_STORE_URL?: string;
  @IsOptional()
  @Matches(/^[a-z_][a-z0-9_]{0,62}$/, { message: 'EVENT_STORE_SCHEMA must be a lower-case SQL identifier' })
  EVENT_STORE_SCHEMA?: string;
  @IsOptional()
  @Matches(/^https?:\/\//, { message: 'CLICKHOUSE_URL must be an http(s):// URL' })
  CLICKHOUSE_URL?: string;
  @IsOptional()
  @Matches(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, {
    message: "CLICKHOUSE_CLUSTER must be a cluster name from the servers' remote_servers (letters, digits, _)",
  })
  CLICKHOUSE_CLUSTER?: string;
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must start with redis:// or rediss://' })
  REDIS_URL?: string;
  @IsOptional() @IsString() REDIS_NAMESPACE?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) @Max(600_000) REDIS_COMMAND_TIMEOUT_MS?: number;
  @IsOptional() @IsIn(['native', 'proxy']) TLS_MODE?: 'native' | 'proxy';
  @IsOptional() @IsString() TLS_CERT_FILE?: string;
  @IsOptional() @IsString() TLS_KEY_FILE?: string;
  @IsOptional() @Matches(/^[A-Za-z0-9.-]+$/, { message: 'SIP_DOMAIN must be a host name' }) SIP_DOMAIN?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) RATE_LIMIT_PER_MINUTE?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) GATEWAY_RATE_LIMIT_PER_MINUTE?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) GATEWAY_UNKNOWN_LOOKUPS_PER_MINUTE?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(60_000) CREDENTIAL_CACHE_TTL_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(60_000) RECORD_CACHE_TTL_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(10) RATE_LIMIT_LEASE_PERCENT?: number;
  @IsOptional() @Matches(SIP_ROUTE, { message: SIP_ROUTE_MESSAGE('SIP_ROUTE_OPENAI') }) SIP_ROUTE_OPENAI?: string;
  @IsOptional()
  @Matches(SIP_ROUTE, { message: SIP_ROUTE_MESSAGE('SIP_ROUTE_ELEVENLABS') })
  SIP_ROUTE_ELEVENLABS?: string;
  @IsOptional() @Matches(SIP_ROUTE, { message: SIP_ROUTE_MESSAGE('SIP_ROUTE_CUSTOM') }) SIP_ROUTE_CUSTOM?: string;
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'MASTER_KEY must be at least 32 characters (base64 of 32 bytes)' })
  MASTER_KEY?: string;
  @IsOptional() @IsIn(['live', 'format']) PROVIDER_VALIDATION?: 'live' | 'format';
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) @Max(60000) PROVIDER_TIMEOUT_MS?: number;
  @IsOptional() @IsIn(['true', 'false']) PROVIDER_PROBE_CUSTOM_ENDPOINTS?: string;
  @IsOptional() @IsString() OPENAI_API_BASE?: string;
  @IsOptional() @IsString() ELEVENLABS_API_BASE?: string;
  @IsOptional() @IsIn(['true', 'false']) WEBHOOK_ALLOW_PRIVATE?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) @Max(120000) WEBHOOK_TIMEOUT_MS?: number;
  @IsOptional()
  @Matches(/^\d{1,10}(,\d{1,10}){0,49}$/, {
    message: 'WEBHOOK_RETRY_SCHEDULE_MS must be 1-50 comma-separated delays in milliseconds',
  })
  WEBHOOK_RETRY_SCHEDULE_MS?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(10) @Max(60000) WEBHOOK_POLL_INTERVAL_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(256) WEBHOOK_CONCURRENCY?: number;
  @IsOptional() @IsString() WEBHOOK_CA_FILE?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1000) @Max(3650 * 86400000) WEBHOOK_DELIVERY_RETENTION_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) @Max(86400000) WEBHOOK_RETENTION_SWEEP_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) @Max(86400000) ALERT_EVALUATION_INTERVAL_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) @Max(60000) AUDIT_CHECKPOINT_INTERVAL_MS?: number;
  @IsOptional() @IsString() EXPORT_DIR?: string;
  @IsOptional() @Type(() => Number) @IsNumber() @Min(0.001) @Max(24 * 365) EXPORT_RETENTION_HOURS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(10) @Max(60000) EXPORT_POLL_INTERVAL_MS?: number;
  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1024) BODY_LIMIT_BYTES?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) @Max(600_000) HEADERS_TIMEOUT_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) @Max(3_600_000) REQUEST_TIMEOUT_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) CONSISTENCY_TIMEOUT_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(10_000) PROJECTION_BATCH_SIZE?: number;
  @IsOptional() @IsString() CONSOLE_DIR?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(50) @Max(86_400_000) CALL_STREAM_POLL_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(3_600_000) OVERVIEW_CACHE_TTL_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) @Max(600_000) CALL_STREAM_HEARTBEAT_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(4096) @Max(256 * 1024 * 1024) CALL_STREAM_MAX_BUFFER_BYTES?: number;
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
  /** Cluster of the ClickHouse servers: migrations create Replicated* and Distributed tables ON CLUSTER. */
  clickhouseCluster: string | null;
  redisUrl: string | null;
  redisNamespace: string;
  /** The longest a Redis command may take before it fails (and its request answers 503). */
  redisCommandTimeoutMs: number;
  tls: { mode: 'native' | 'proxy'; certFile: string | null; keyFile: string | null };
  sipDomain: string;
  rateLimitPerMinute: number;
  /** Requests per minute of each gateway key, its own budget (docs/sip-gateway.md). */
  gatewayRateLimitPerMinute: number;
  /** Lookups of unknown sip_usernames per minute and gateway key, counted apart so they never lock out known ones. */
  gatewayUnknownLookupsPerMinute: number;
  /** How long an instance trusts a cached credential without hearing of a revocation; 0 = no cache. */
  credentialCacheTtlMs: number;
  /** With Redis: how long an instance trusts its copy of a record the gate reads without hearing of a write; 0 = no copies. */
  recordCacheTtlMs: number;
  /** The largest lease of rate-limit slots an instance takes, in percent of the limit; 0 = one slot per request. */
  rateLimitLeasePercent: number;
  /** Where a gateway relays each provider's calls: a SIP URI template per provider, null when unset. */
  sipRoutes: Record<'openai' | 'elevenlabs' | 'custom', string | null>;
  masterKey: string | null;
  providerValidation: 'live' | 'format';
  providerTimeoutMs: number;
  /** Live mode: open a WebSocket handshake with custom endpoints on create/PATCH. */
  providerProbeCustomEndpoints: boolean;
  openaiApiBase: string;
  elevenlabsApiBase: string;
  webhookAllowPrivate: boolean;
  /** Time limit of one webhook attempt, connect to the end of the response. */
  webhookTimeoutMs: number;
  /** Delays after each failed attempt (the first attempt is immediate); its length is the number of retries. */
  webhookRetryScheduleMs: number[];
  webhookPollIntervalMs: number;
  webhookConcurrency: number;
  /** PEM file of extra CAs webhook receivers may present (a test receiver's self-signed certificate). */
  webhookCaFile: string | null;
  /** Finished deliveries older than this leave the read models (their streams stay). */
  webhookDeliveryRetentionMs: number;
  webhookRetentionSweepMs: number;
  alertEvaluationIntervalMs: number;
  /** How often accounts with new events get an audit checkpoint (at most a minute). */
  auditCheckpointIntervalMs: number;
  /** Where export files are written (a volume every instance shares when there are several). */
  exportDir: string;
  /** How long an export's file is kept after it completed. */
  exportRetentionMs: number;
  /** How often the export runner looks for new jobs and expired files. */
  exportPollIntervalMs: number;
  logLevel: string;
  bodyLimitBytes: number;
  /** Slow-client protection: a connection must deliver its request headers (and whole request) within these. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** How long a 2xx write waits for its projections (read-your-writes). */
  consistencyTimeoutMs: number;
  /** The most events a projection catch-up (a replay, a rebuild, a restart behind) reads and writes at once. */
  projectionBatchSize: number;
  /** The built operator console served at /console (Vite's output). */
  consoleDir: string;
  /** The live call stream (docs/analytics.md "Calls as they happen"): read interval without a notice, heartbeat, buffer bound. */
  callStreamPollMs: number;
  /** How long an instance trusts its copy of an overview's whole hours without hearing of a write to them; 0 = no copies. */
  overviewCacheTtlMs: number;
  callStreamHeartbeatMs: number;
  callStreamMaxBufferBytes: number;
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
  if (parsed.CLICKHOUSE_CLUSTER && !parsed.CLICKHOUSE_URL)
    throw new ConfigError(['CLICKHOUSE_CLUSTER: requires CLICKHOUSE_URL (embedded chDB has no cluster)']);
  if ((parsed.HEADERS_TIMEOUT_MS ?? 10_000) > (parsed.REQUEST_TIMEOUT_MS ?? 30_000)) {
    throw new ConfigError(['HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS']);
  }
  if (parsed.WEBHOOK_CA_FILE && !existsSync(parsed.WEBHOOK_CA_FILE))
    throw new ConfigError([`WEBHOOK_CA_FILE: ${parsed.WEBHOOK_CA_FILE} does not exist`]);
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
    clickhouseCluster: parsed.CLICKHOUSE_CLUSTER ?? null,
    redisUrl: parsed.REDIS_URL ?? null,
    redisNamespace: parsed.REDIS_NAMESPACE ?? 'tl:',
    redisCommandTimeoutMs: parsed.REDIS_COMMAND_TIMEOUT_MS ?? 1000,
    tls: {
      mode: parsed.TLS_MODE ?? 'native',
      certFile: parsed.TLS_CERT_FILE ?? null,
      keyFile: parsed.TLS_KEY_FILE ?? null,
    },
    sipDomain: parsed.SIP_DOMAIN ?? 'sip.trunkline.local',
    rateLimitPerMinute: parsed.RATE_LIMIT_PER_MINUTE ?? 6000,
    gatewayRateLimitPerMinute: parsed.GATEWAY_RATE_LIMIT_PER_MINUTE ?? 120_000,
    gatewayUnknownLookupsPerMinute: parsed.GATEWAY_UNKNOWN_LOOKUPS_PER_MINUTE ?? 6000,
    credentialCacheTtlMs: parsed.CREDENTIAL_CACHE_TTL_MS ?? 10_000,
    recordCacheTtlMs: parsed.RECORD_CACHE_TTL_MS ?? 10_000,
    rateLimitLeasePercent: parsed.RATE_LIMIT_LEASE_PERCENT ?? 1,
    sipRoutes: {
      openai: parsed.SIP_ROUTE_OPENAI ?? null,
      elevenlabs: parsed.SIP_ROUTE_ELEVENLABS ?? null,
      custom: parsed.SIP_ROUTE_CUSTOM ?? null,
    },
    masterKey: parsed.MASTER_KEY ?? null,
    providerValidation: parsed.PROVIDER_VALIDATION ?? (embedded ? 'format' : 'live'),
    providerTimeoutMs: parsed.PROVIDER_TIMEOUT_MS ?? 5000,
    providerProbeCustomEndpoints: parsed.PROVIDER_PROBE_CUSTOM_ENDPOINTS === 'true',
    openaiApiBase: parsed.OPENAI_API_BASE ?? 'https://api.openai.com/v1',
    elevenlabsApiBase: parsed.ELEVENLABS_API_BASE ?? 'https://api.elevenlabs.io/v1',
    webhookAllowPrivate: parsed.WEBHOOK_ALLOW_PRIVATE === 'true',
    webhookTimeoutMs: parsed.WEBHOOK_TIMEOUT_MS ?? 15_000,
    webhookRetryScheduleMs: parsed.WEBHOOK_RETRY_SCHEDULE_MS
      ? parsed.WEBHOOK_RETRY_SCHEDULE_MS.split(',').map(Number)
      : STANDARD_WEBHOOKS_RETRIES_MS,
    webhookPollIntervalMs: parsed.WEBHOOK_POLL_INTERVAL_MS ?? 1000,
    webhookConcurrency: parsed.WEBHOOK_CONCURRENCY ?? 16,
    webhookCaFile: parsed.WEBHOOK_CA_FILE ? resolve(parsed.WEBHOOK_CA_FILE) : null,
    webhookDeliveryRetentionMs: parsed.WEBHOOK_DELIVERY_RETENTION_MS ?? 30 * 86_400_000,
    webhookRetentionSweepMs: parsed.WEBHOOK_RETENTION_SWEEP_MS ?? 3_600_000,
    alertEvaluationIntervalMs: parsed.ALERT_EVALUATION_INTERVAL_MS ?? 60_000,
    auditCheckpointIntervalMs: parsed.AUDIT_CHECKPOINT_INTERVAL_MS ?? 30_000,
    exportDir: resolve(parsed.EXPORT_DIR ?? join(parsed.DATA_DIR ?? './.data', 'exports')),
    exportRetentionMs: Math.round((parsed.EXPORT_RETENTION_HOURS ?? 24) * 3_600_000),
    exportPollIntervalMs: parsed.EXPORT_POLL_INTERVAL_MS ?? 1000,
    logLevel: parsed.LOG_LEVEL ?? 'info',
    bodyLimitBytes: parsed.BODY_LIMIT_BYTES ?? 1024 * 1024,
    headersTimeoutMs: parsed.HEADERS_TIMEOUT_MS ?? 10_000,
    requestTimeoutMs: parsed.REQUEST_TIMEOUT_MS ?? 30_000,
    consistencyTimeoutMs: parsed.CONSISTENCY_TIMEOUT_MS ?? 5000,
    projectionBatchSize: parsed.PROJECTION_BATCH_SIZE ?? 2000,
    consoleDir: resolve(parsed.CONSOLE_DIR ?? builtConsoleDir()),
    callStreamPollMs: parsed.CALL_STREAM_POLL_MS ?? 1000,
    overviewCacheTtlMs: parsed.OVERVIEW_CACHE_TTL_MS ?? 60_000,
    callStreamHeartbeatMs: parsed.CALL_STREAM_HEARTBEAT_MS ?? 15_000,
    callStreamMaxBufferBytes: parsed.CALL_STREAM_MAX_BUFFER_BYTES ?? 1024 * 1024,
  };
}

/** dist/console under the package root (the folder with package.json), run from src/ or from dist/src/. */
function builtConsoleDir(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'console');
}

export const APP_CONFIG = Symbol('AppConfig');

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/**
 * Standard Webhooks: immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, continued every
 * 10 h to about 3 days (12 attempts over 2 d 19 h 35 min 5 s).
 */
export const STANDARD_WEBHOOKS_RETRIES_MS = [
  5000,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

/**
 * Read models live under their own prefix, so a rebuild (which clears its namespace) never
 * touches rate-limit counters or key usage.
 */
export const readModelNamespace = (config: Pick<AppConfig, 'redisNamespace'>): string => `${config.redisNamespace}rm:`;
