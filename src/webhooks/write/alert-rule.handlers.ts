import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventMetadata } from '../../infrastructure/event-store/event-store.port';
import { CLOCK, Clock } from '../../shared/clock';
import { newId } from '../../shared/ids';
import { CommandRunner } from '../../eventsourcing/command-runner';
import { alertRuleDecider, alertRuleStream } from '../domain/alert-rule.decider';
import type { AlertRuleEvent } from '../domain/alert-rule.events';
import { CreateAlertRuleRequestDto } from './dto/create-alert-rule.request.dto';
import type { WebhookWrite } from './webhook-write';

export class CreateAlertRule {
  constructor(
    readonly accountId: string,
    readonly input: CreateAlertRuleRequestDto,
    readonly metadata: EventMetadata,
  ) {}
}
export class DeleteAlertRule {
  constructor(
    readonly ruleId: string,
    readonly accountId: string,
    readonly metadata: EventMetadata,
  ) {}
}

/** The caller has checked that `trunk_id`, when given, is a trunk of this account. */
@CommandHandler(CreateAlertRule)
export class CreateAlertRuleHandler implements ICommandHandler<CreateAlertRule, WebhookWrite & { ruleId: string }> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, input, metadata }: CreateAlertRule): Promise<WebhookWrite & { ruleId: string }> {
    const ruleId = newId('ar');
    const condition = {
      metric: input.metric,
      comparison: input.comparison,
      threshold: input.threshold,
      window_minutes: input.window_minutes,
      trunk_id: input.trunk_id ?? null,
    };
    const outcome = await this.runner.run(
      alertRuleStream(ruleId),
      alertRuleDecider,
      {
        type: 'CreateAlertRule',
        data: { ruleId, accountId, name: input.name ?? null, condition, at: this.clock.now() },
      },
      metadata,
      { expected: 'no_stream' },
    );
    return { position: outcome.position, ruleId };
  }
}

/** A deleted rule stops being evaluated; one that was firing sends no alert.resolved. */
@CommandHandler(DeleteAlertRule)
export class DeleteAlertRuleHandler implements ICommandHandler<DeleteAlertRule, WebhookWrite> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ ruleId, accountId, metadata }: DeleteAlertRule): Promise<WebhookWrite> {
    const outcome = await this.runner.run(
      alertRuleStream(ruleId),
      alertRuleDecider,
      { type: 'DeleteAlertRule', data: { accountId, at: this.clock.now() } },
      metadata,
    );
    return { position: outcome.position };
  }
}

export class EvaluateAlertRule {
  constructor(
    readonly ruleId: string,
    readonly value: number | null,
    readonly calls: number,
    readonly at: Date,
  ) {}
}

/** The evaluator's verdict on one rule: the decider turns it into a trigger, a resolution or nothing. */
@CommandHandler(EvaluateAlertRule)
export class EvaluateAlertRuleHandler implements ICommandHandler<
  EvaluateAlertRule,
  WebhookWrite & { events: AlertRuleEvent[] }
> {
  constructor(private readonly runner: CommandRunner) {}

  async execute({ ruleId, value, calls, at }: EvaluateAlertRule): Promise<WebhookWrite & { events: AlertRuleEvent[] }> {
    const outcome = await this.runner.run(
      alertRuleStream(ruleId),
      alertRuleDecider,
      { type: 'EvaluateAlertRule', data: { value, calls, at } },
      { actor: 'system:alerts', correlation_id: ruleId },
    );
    return { position: outcome.position, events: outcome.events };
  }
}
