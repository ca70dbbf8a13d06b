import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { LeaderLease, LeaderTask, LeaderTerm, Leadership } from './leader-lease.port';
import { defineScript, RedisScript } from '../redis/redis.script';
import { leaseKeys } from './lease-keys';
import { newTerm, pause } from './lease-term';

export interface RedisLeaseOptions {
  /** How long a lease outlives its last renewal: the longest a dead leader blocks a takeover. */
  ttlMs?: number;
  /** How often a follower tries to take the lease. */
  retryMs?: number;
  /** Unique per process; defaults to host:pid:random. */
  instanceId?: string;
  onEvent?: (event: 'acquired' | 'released' | 'lost' | 'error', details: Record<string, unknown>) => void;
}

// The fencing counter only ever grows (INCR), so every term's token beats every earlier one.
const ACQUIRE_LUA = `
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '#' .. token, 'PX', ARGV[2])
return token`;
// Renew and release act only on our own term: an expired lease taken by another stays theirs.
const RENEW_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
const RELEASE_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

interface LeaseScripts {
  acquire: RedisScript<[lease: string, fence: string, owner: string, ttl: number], number | null>;
  renew: RedisScript<[lease: string, value: string, ttl: number], number>;
  release: RedisScript<[lease: string, value: string], number>;
}

/**
 * A lease per task name in Redis (SET NX PX through a script that also draws the fencing token),
 * renewed every quarter of its TTL by a script that checks the owner. The leader ends its own term
 * when a renewal fails or when its local deadline passes: the last renewal sent + three quarters
 * of the TTL, a quarter before Redis can expire the key. So a partitioned leader stops before a
 * successor starts, even when its process was paused (a loaded machine, a GC) for less than that
 * quarter, as long as clocks run at the same rate. Writes that must never come from a deposed
 * leader check the lease value atomically (redis.fenced-writer.ts), whatever the pause.
 */
export class RedisLeaderLease implements LeaderLease {
  readonly instanceId: string;
  private readonly ttlMs: number;
  private readonly retryMs: number;
  private readonly scripts: LeaseScripts;

  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
    private readonly options: RedisLeaseOptions = {},
  ) {
    this.instanceId = options.instanceId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.ttlMs = options.ttlMs ?? 3000;
    this.retryMs = options.retryMs ?? 250;
    this.scripts = {
      acquire: defineScript(redis, 'trunklineLeaseAcquire', { numberOfKeys: 2, lua: ACQUIRE_LUA }),
      renew: defineScript(redis, 'trunklineLeaseRenew', { numberOfKeys: 1, lua: RENEW_LUA }),
      release: defineScript(redis, 'trunklineLeaseRelease', { numberOfKeys: 1, lua: RELEASE_LUA }),
    };
  }

  runWhileLeader(name: string, task: LeaderTask): Leadership {
    const stopper = new AbortController();
    let current: LeaderTerm | null = null;
    const loop = (async () => {
      while (!stopper.signal.aborted) {
        const won = await this.campaign(name, stopper.signal);
        if (!won) break;
        current = won.term;
        await this.lead(won.term, won.sentAt, task, stopper.signal);
        current = null;
      }
    })();
    return {
      get leading() {
        return current !== null && !current.signal.aborted;
      },
      async stop() {
        stopper.abort();
        await loop;
      },
    };
  }

  /** Tries to take the lease until it gets it (a term, and when the winning try was sent) or the instance stops. */
  private async campaign(name: string, stopped: AbortSignal): Promise<{ term: LeaderTerm; sentAt: number } | null> {
    const keys = leaseKeys(this.namespace, name);
    while (!stopped.aborted) {
      // The key's TTL starts between send and reply: counting from the send never overestimates it.
      const sentAt = Date.now();
      try {
        const token = await this.scripts.acquire(keys.lease, keys.fence, this.instanceId, this.ttlMs);
        if (token !== null) {
          const term = newTerm(name, this.instanceId, Number(token), (event, reason) =>
            this.options.onEvent?.(event, { lease: name, token: Number(token), reason }),
          );
          this.options.onEvent?.('acquired', { lease: name, token: term.fencingToken });
          return { term, sentAt };
        }
      } catch (error) {
        this.options.onEvent?.('error', { lease: name, step: 'acquire', message: (error as Error).message });
      }
      await pause(this.retryMs + Math.floor(Math.random() * 50), stopped);
    }
    return null;
  }

  private async lead(term: LeaderTerm, acquiredAt: number, task: LeaderTask, stopped: AbortSignal): Promise<void> {
    const keys = leaseKeys(this.namespace, term.name);
    const onStop = () => term.resign('instance stopping');
    stopped.addEventListener('abort', onStop);
    // A stop that came while the winning acquire was in flight has fired its abort already: the
    // listener would never hear it, and the task would run on past the stop (a SIGTERM that
    // hung until the shutdown deadline, found under load with three instances campaigning).
    if (stopped.aborted) onStop();
    const renewing = this.renew(term, keys.lease, acquiredAt);
    let failed = false;
    try {
      await task(term);
    } catch (error) {
      failed = true;
      this.options.onEvent?.('error', { lease: term.name, step: 'task', message: (error as Error).message });
    } finally {
      term.resign('task ended');
      stopped.removeEventListener('abort', onStop);
      await renewing;
      await this.scripts.release(keys.lease, term.leaseValue).catch(() => undefined);
    }
    if (failed) await pause(this.retryMs * 4, stopped);
  }

  /** Renews every quarter of the TTL until the term ends; ends it when the lease cannot be kept. */
  private async renew(term: LeaderTerm, leaseKey: string, acquiredAt: number): Promise<void> {
    const guardMs = Math.floor(this.ttlMs / 4);
    let validUntil = acquiredAt + this.ttlMs - guardMs;
    const deadline = () =>
      setTimeout(() => term.resign('lease not renewed in time'), Math.max(0, validUntil - Date.now()));
    let expiry = deadline();
    try {
      while (!term.signal.aborted) {
        await pause(guardMs, term.signal);
        if (term.signal.aborted) break;
        const sentAt = Date.now();
        try {
          const renewed = await this.scripts.renew(leaseKey, term.leaseValue, this.ttlMs);
          if (renewed !== 1) term.resign('lease taken over');
          else {
            validUntil = sentAt + this.ttlMs - guardMs;
            clearTimeout(expiry);
            expiry = deadline();
          }
        } catch (error) {
          this.options.onEvent?.('error', { lease: term.name, step: 'renew', message: (error as Error).message });
        }
      }
    } finally {
      clearTimeout(expiry);
    }
  }
}
