/** IPC between the bench and its server children: each child answers one `ready` or `failed`. */
export interface AppReady {
  type: 'ready';
  port: number;
  /** The app's self-signed certificate and key (PEM), reused by the bare server. */
  cert: string;
  key: string;
  adminKey: string;
  /** Values for the {placeholders} of --path, e.g. account_id. */
  ids: Record<string, string>;
  /** A full-scope key of that account, for account-scoped paths. */
  accountKey: string;
}

export interface BareReady {
  type: 'ready';
  port: number;
}

export interface ChildFailed {
  type: 'failed';
  message: string;
}

export interface StopRequest {
  type: 'stop';
}

export interface CpuUsageRequest {
  type: 'cpu-usage';
}

/** process.cpuUsage() of the child, user + system, in microseconds since it started. */
export interface CpuUsageReply {
  type: 'cpu-usage';
  micros: number;
}

/** What the bench passes to the bare server child (as one JSON environment variable). */
export interface BareServerSpec {
  cert: string;
  key: string;
  /** Fastify route pattern, e.g. /v1/accounts/:account_id */
  route: string;
  /** The app's response body: served re-serialised from the parsed object, as the app does. */
  body: string;
  /**
   * When set, each request first makes the app's Redis round trips through the app's own adapters
   * (the credential + rate-limit script, then one read-model HGETALL): the floor under the app's cost.
   */
  redis?: { url: string; namespace: string; credentialKey: string | null; readKey: string };
}

export const BARE_SPEC_ENV = 'BENCH_BARE_SERVER_SPEC';
