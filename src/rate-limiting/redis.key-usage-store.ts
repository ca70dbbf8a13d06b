import type { Redis } from 'ioredis';
import { closeRedisClient } from '../infrastructure/redis/redis.client';
import { defineScript, RedisScript } from '../infrastructure/redis/redis.script';
import type { KeyUsage, KeyUsageStore } from './rate-limiter.port';

// last_used_at only moves forward, so records arriving out of order (several instances, retries)
// never make a key look less recently used than it was.
const RECORD_LUA = `
redis.call('HINCRBY', KEYS[1], 'requests', tonumber(ARGV[2]))
if tonumber(ARGV[3]) > 0 then redis.call('HINCRBY', KEYS[1], 'errors', tonumber(ARGV[3])) end
local last = redis.call('HGET', KEYS[1], 'last_used_at')
if not last or tonumber(ARGV[1]) > tonumber(last) then
  redis.call('HSET', KEYS[1], 'last_used_at', ARGV[1])
end`;

const RECORD_COMMAND = 'trunklineKeyUsageRecord';
const FIELDS = ['requests', 'errors', 'last_used_at'] as const;

type RecordCommand = RedisScript<[key: string, atMs: number, requests: number, errors: number], unknown>;

interface Pending {
  requests: number;
  errors: number;
  lastMs: number;
}

/** Counts are summed in process and written this often: one script call per key, not per request. */
const FLUSH_EVERY_MS = 250;

export class RedisKeyUsageStore implements KeyUsageStore {
  private readonly recordScript: RecordCommand;
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
  ) {
    this.recordScript = defineScript(redis, RECORD_COMMAND, { lua: RECORD_LUA, numberOfKeys: 1 });
  }

  /**
   * Adds to this instance's pending counts; written within FLUSH_EVERY_MS. The request path pays
   * no Redis round trip for it, and a get() on this instance first writes what is pending.
   */
  async record(keyId: string, at: Date, isError: boolean): Promise<void> {
    const atMs = at.getTime();
    if (Number.isNaN(atMs)) throw new RangeError('record() needs a valid date');
    const entry = this.pending.get(keyId) ?? { requests: 0, errors: 0, lastMs: 0 };
    entry.requests += 1;
    entry.errors += isError ? 1 : 0;
    entry.lastMs = Math.max(entry.lastMs, atMs);
    this.pending.set(keyId, entry);
    this.scheduleFlush();
  }

  /** Unref'd: pending counts never keep a process alive, and nothing is scheduled once closed. */
  private scheduleFlush(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => void this.flush().catch(() => undefined), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  /** Writes the pending counts; on failure they stay pending for the next flush. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    const run = this.flushing.then(async () => {
      try {
        await Promise.all([...batch].map(([id, p]) => this.recordScript(this.key(id), p.lastMs, p.requests, p.errors)));
      } catch (error) {
        for (const [id, p] of batch) {
          const entry = this.pending.get(id) ?? { requests: 0, errors: 0, lastMs: 0 };
          this.pending.set(id, {
            requests: entry.requests + p.requests,
            errors: entry.errors + p.errors,
            lastMs: Math.max(entry.lastMs, p.lastMs),
          });
        }
        this.scheduleFlush();
        throw error;
      }
    });
    this.flushing = run.catch(() => undefined);
    return run;
  }

  /** One pipeline, one round trip, however many keys. */
  async get(keyIds: string[]): Promise<Map<string, KeyUsage>> {
    await this.flush();
    const ids = [...new Set(keyIds)];
    const usage = new Map<string, KeyUsage>();
    if (ids.length === 0) return usage;
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hmget(this.key(id), ...FIELDS);
    const replies = (await pipeline.exec()) ?? [];
    ids.forEach((id, i) => {
      const [err, fields] = replies[i] ?? [new Error('Missing pipeline reply')];
      if (err) throw err;
      usage.set(id, toUsage(fields as (string | null)[]));
    });
    return usage;
  }

  async close(): Promise<void> {
    await this.flush().catch(() => undefined);
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return closeRedisClient(this.redis);
  }

  private key(keyId: string): string {
    return `${this.namespace}usage:${keyId}`;
  }
}

function toUsage([requests, errors, lastUsedAt]: (string | null)[]): KeyUsage {
  return {
    lastUsedAt: lastUsedAt === null ? null : new Date(Number(lastUsedAt)),
    requestCount: Number(requests ?? 0),
    errorCount: Number(errors ?? 0),
  };
}
