import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Leadership of a named task across instances: exactly one instance at a time runs the task of a
 * given name. Adapters: Redis (a lease with fencing tokens, shared by every instance) and local
 * (one process is its own leader: the embedded setup, or a task whose store is process-local).
 */

/** One continuous stretch of leadership of one instance. */
export interface LeaderTerm {
  readonly name: string;
  /**
   * Strictly greater than the token of every earlier term of this name (Redis INCR). A store
   * that checks it atomically with a write refuses writes from a deposed leader.
   */
  readonly fencingToken: number;
  /** The value the lease holds during this term (owner and token), for fenced writes. */
  readonly leaseValue: string;
  /** Aborted when the term ends: lease lost, not renewed in time, or the instance stops. */
  readonly signal: AbortSignal;
  /** Ends the term at once (a fenced write was refused: someone else leads now). */
  resign(reason: string): void;
}

/**
 * Runs while this instance leads, and must return soon after `term.signal` aborts. If it throws,
 * the lease is released and campaigning starts again after a pause.
 */
export type LeaderTask = (term: LeaderTerm) => Promise<void>;

export interface Leadership {
  /** Whether this instance leads the task right now. */
  readonly leading: boolean;
  /** Stops the task (if running), releases the lease and stops campaigning. */
  stop(): Promise<void>;
}

export interface LeaderLease {
  runWhileLeader(name: string, task: LeaderTask): Leadership;
}

export const LEADER_LEASE = Symbol('LeaderLease');

/** A fenced write arrived after its term ended: the writer must stop writing. */
export class FencedOffError extends Error {
  constructor(readonly leaseName: string) {
    super(`lease ${leaseName} is held by another instance: write refused`);
    this.name = 'FencedOffError';
  }
}

/**
 * A periodic job run by one instance among many: while leading, waits `intervalMs`, runs `job`
 * (a failure is reported and the next round comes as usual), and so on until the term ends.
 */
export function runPeriodicallyWhileLeader(
  lease: LeaderLease,
  name: string,
  intervalMs: number,
  job: () => Promise<unknown>,
  onError: (error: Error) => void,
): Leadership {
  return lease.runWhileLeader(name, async (term) => {
    while (!term.signal.aborted) {
      // timers/promises removes its abort listener when the time is up: none pile up on the term.
      await sleep(intervalMs, undefined, { signal: term.signal }).catch(() => undefined);
      if (term.signal.aborted) return;
      await job().catch(onError);
    }
  });
}
