import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface RedisMutexOptions {
  /** Longer than the slowest critical section (ClickHouse statements time out at 30 s). */
  ttlMs?: number;
  /** Give up waiting after this long (the caller answers 503, retryable). */
  maxWaitMs?: number;
}

const RELEASE_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export class MutexTimeoutError extends Error {
  constructor(key: string, waitedMs: number) {
    super(`could not take ${key} in ${waitedMs} ms`);
    this.name = 'MutexTimeoutError';
  }
}

/**
 * One holder at a time across instances (SET NX PX, released by a script that checks the owner).
 * Waiters poll with a short, growing back-off: holds are short and contention is between a
 * handful of instances, which a queue would not beat.
 */
export class RedisMutex {
  private readonly ttlMs: number;
  private readonly maxWaitMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    options: RedisMutexOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.maxWaitMs = options.maxWaitMs ?? 20_000;
  }

  async withLock<T>(critical: () => Promise<T>): Promise<T> {
    const token = randomBytes(12).toString('hex');
    await this.acquire(token);
    try {
      return await critical();
    } finally {
      await this.redis.eval(RELEASE_LUA, 1, this.key, token).catch(() => undefined);
    }
  }

  private async acquire(token: string): Promise<void> {
    const started = Date.now();
    for (let delay = 1; ; delay = Math.min(delay * 2, 20)) {
      if ((await this.redis.set(this.key, token, 'PX', this.ttlMs, 'NX')) === 'OK') return;
      if (Date.now() - started > this.maxWaitMs) throw new MutexTimeoutError(this.key, Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
