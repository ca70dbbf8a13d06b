import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventMetadata } from '../../infrastructure/event-store/event-store.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { trunkKeys, TrunkView } from '../../projections/trunks/trunk-view';
import { WebhookReadModels } from '../projections/webhook-read-models.service';
import { AlertRuleView, webhookKeys } from '../projections/webhook-views';
import { alertRuleDto, AlertRuleDto } from '../read/alert-rule.dto';
import { CLOCK, Clock } from '../../shared/clock';
import { invalidField, notFound } from '../../shared/domain-error';
import { newId } from '../../shared/ids';
import { CommandRunner } from '../../write/command-runner';
import { alertRuleDecider, alertRuleStream } from '../domain/alert-rule.decider';
import { CreateAlertRuleRequestDto } from './dto/create-alert-rule.request.dto';

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

@CommandHandler(CreateAlertRule)
export class CreateAlertRuleHandler implements ICommandHandler<CreateAlertRule, AlertRuleDto> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly readModels: WebhookReadModels,
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, input, metadata }: CreateAlertRule): Promise<AlertRuleDto> {
    if (input.trunk_id !== undefined) await this.checkTrunk(accountId, input.trunk_id);
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
    await this.readModels.waitFor(outcome.position);
    const raw = await this.store.get(webhookKeys.alertRule(ruleId));
    if (!raw) throw notFound('Alert rule');
    return alertRuleDto(JSON.parse(raw) as AlertRuleView);
  }

  /** Another account's trunk is reported exactly like a missing one. */
  private async checkTrunk(accountId: string, trunkId: string): Promise<void> {
    const raw = await this.store.get(trunkKeys.trunk(trunkId));
    const trunk = raw ? (JSON.parse(raw) as TrunkView) : null;
    if (!trunk || trunk.account_id !== accountId)
      throw invalidField('trunk_id', `trunk ${trunkId} does not exist in this account`);
  }
}

/** A deleted rule stops being evaluated; one that was firing sends no alert.resolved. */
@CommandHandler(DeleteAlertRule)
export class DeleteAlertRuleHandler implements ICommandHandler<DeleteAlertRule, void> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly readModels: WebhookReadModels,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ ruleId, accountId, metadata }: DeleteAlertRule): Promise<void> {
    const outcome = await this.runner.run(
      alertRuleStream(ruleId),
      alertRuleDecider,
      { type: 'DeleteAlertRule', data: { accountId, at: this.clock.now() } },
      metadata,
    );
    await this.readModels.waitFor(outcome.position);
  }
}
