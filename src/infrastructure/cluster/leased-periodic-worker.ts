import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { LeaderLease, Leadership, runPeriodicallyWhileLeader } from './leader-lease.port';

export interface PeriodicWork {
  /** The lease's name: one holder among the instances runs the rounds. */
  name: string;
  intervalMs: number;
  /** What the warning logged for a failed round says (the next round runs as planned). */
  failure: string;
}

/**
 * A job one instance among many runs every `intervalMs`: the holder of the lease `name` (the
 * process itself without Redis), from the app's start until shutdown, which stops the rounds
 * before the stores close. A round checks `stopped` between its steps, so a shutdown waits for one
 * step, not a whole round. The retention sweeper, the alert evaluator and the audit checkpointer
 * are this, each with its own round.
 */
export abstract class LeasedPeriodicWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  protected stopped = false;
  private leadership: Leadership | null = null;

  protected constructor(
    private readonly lease: LeaderLease,
    private readonly work: PeriodicWork,
    protected readonly logger: Logger,
  ) {}

  /** One round of the work. */
  protected abstract round(): Promise<unknown>;

  onApplicationBootstrap(): void {
    this.leadership = runPeriodicallyWhileLeader(
      this.lease,
      this.work.name,
      this.work.intervalMs,
      () => this.round(),
      (error) => this.logger.warn({ err: { message: error.message } }, this.work.failure),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.leadership?.stop();
  }
}
