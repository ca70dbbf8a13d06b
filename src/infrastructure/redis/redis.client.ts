import { Redis } from 'ioredis';

export interface RedisClientOptions {
  connectionName?: string;
  /** Connection errors (refused, reset, timeout). Without a listener ioredis prints each one. */
  onError?: (err: Error) => void;
  /** A command that takes longer fails (REDIS_COMMAND_TIMEOUT_MS; 1 s by default). */
  commandTimeoutMs?: number;
}

const DEFAULT_COMMAND_TIMEOUT_MS = 1000;
const CONNECT_TIMEOUT_MS = 2000;
const MAX_RECONNECT_DELAY_MS = 2000;

/**
 * A client for the request path: a command answers or fails within its timeout (a second by
 * default), so the service can answer 503 instead of holding the request while Redis is away.
 */
export function createRedisClient(url: string, opts: RedisClientOptions = {}): Redis {
  const redis = new Redis(url, {
    connectionName: opts.connectionName,
    enableAutoPipelining: true,
    // Bounds everything, including commands queued while disconnected and in-flight commands
    // whose connection died (those are otherwise never settled when not resent).
    commandTimeout: opts.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    // INCR/HINCRBY are not idempotent: replaying a command whose reply was lost could count a
    // request twice, and its caller has already been told it failed.
    autoResendUnfulfilledCommands: false,
    retryStrategy: reconnectDelay,
    // ioredis arms this timer even for a socket that never connected, and it holds the event
    // loop open after close (2 s by default).
    disconnectTimeout: 500,
  });
  redis.on('error', opts.onError ?? (() => undefined));
  // Queue only until the first connect (boot may issue commands before it); afterwards an
  // outage fails commands at once rather than replaying them later, after their callers gave up.
  redis.once('ready', () => {
    redis.options.enableOfflineQueue = false;
  });
  return redis;
}

/** Reconnects forever: exponential back-off capped at 2 s, with jitter against reconnect storms. */
function reconnectDelay(attempt: number): number {
  const base = Math.min(50 * 2 ** Math.min(attempt, 10), MAX_RECONNECT_DELAY_MS);
  return base + Math.floor(Math.random() * 100);
}

export function waitForReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  if (redis.status === 'end') return Promise.reject(new Error('Redis connection is closed'));
  return new Promise((resolve, reject) => {
    let lastError: Error | undefined;
    const onError = (err: Error) => (lastError = err);
    const onReady = () => settle();
    const onEnd = () => settle(new Error('Redis connection closed before it was ready'));
    const timer = setTimeout(() => {
      const cause = lastError ? `: ${lastError.message}` : '';
      settle(new Error(`Redis not ready after ${timeoutMs} ms${cause}`));
    }, timeoutMs);
    function settle(err?: Error): void {
      clearTimeout(timer);
      redis.off('error', onError).off('ready', onReady).off('end', onEnd);
      if (err) reject(err);
      else resolve();
    }
    redis.on('error', onError).once('ready', onReady).once('end', onEnd);
  });
}

const closing = new WeakMap<Redis, Promise<void>>();

/** Idempotent, so adapters sharing one client can each close it. */
export function closeRedisClient(redis: Redis): Promise<void> {
  let done = closing.get(redis);
  if (!done) {
    done = quitOrDisconnect(redis);
    closing.set(redis, done);
  }
  return done;
}

async function quitOrDisconnect(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  try {
    await redis.quit();
  } catch {
    // QUIT cannot reach a server that is down; drop the socket and stop reconnecting.
    redis.disconnect(false);
  }
}
