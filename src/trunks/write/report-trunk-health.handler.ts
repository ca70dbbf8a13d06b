import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandRunner } from '../../eventsourcing/command-runner';
import { CLOCK, Clock } from '../../shared/clock';
import { trunkDecider, trunkStream } from '../domain/trunk.decider';

/** The trunk health monitor's verdict on a trunk (docs/analytics.md, "Trunk health"). */
export class ReportTrunkHealth {
  constructor(
    readonly trunkId: string,
    readonly accountId: string,
    readonly healthy: boolean,
    readonly reason: string,
    readonly callIds: string[],
  ) {}
}

/** Through the trunk's decider like every change of a trunk: history, as_of, audit and webhooks follow. */
@CommandHandler(ReportTrunkHealth)
export class ReportTrunkHealthHandler implements ICommandHandler<ReportTrunkHealth, boolean> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** True when the trunk's status changed. */
  async execute({ trunkId, accountId, healthy, reason, callIds }: ReportTrunkHealth): Promise<boolean> {
    const outcome = await this.runner.run(
      trunkStream(trunkId),
      trunkDecider,
      { type: 'ReportTrunkHealth', data: { accountId, healthy, reason, callIds, at: this.clock.now() } },
      { actor: 'system:trunk-health' },
    );
    return outcome.events.length > 0;
  }
}
