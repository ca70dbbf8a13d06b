import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiTags, ApiOperation } from '@nestjs/swagger';
import { accountOf, Ctx, eventMetadata, RequestContext } from '../../platform/http/request-context';
import { AlertRuleDto } from '../read/alert-rule.dto';
import { CreateAlertRule, DeleteAlertRule } from '../write/alert-rule.handlers';
import { CreateAlertRuleRequestDto } from '../write/dto/create-alert-rule.request.dto';
import type { WebhookWrite } from '../write/webhook-write';
import { GetAlertRule } from '../read/webhook.queries';
import { GetTrunk } from '../../trunks/read/trunk.queries';
import { DomainError, invalidField } from '../../shared/domain-error';
import { WebhookEndpointSupport } from './webhook-endpoint-support';

@ApiTags('alerts')
@ApiBearerAuth()
@Controller('v1/alert-rules')
export class AlertRulesWriteController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly edge: WebhookEndpointSupport,
  ) {}

  @Post()
  @ApiOperation({
    operationId: 'createAlertRule',
    description:
      'Defines a condition on a call metric over a rolling window (e.g. p95 latency above 1000 ms over 5 minutes); alert.triggered and alert.resolved webhooks follow its changes.',
    summary: 'Create an alert rule',
  })
  @HttpCode(201)
  @ApiCreatedResponse({
    type: AlertRuleDto,
    description:
      'Evaluated every ALERT_EVALUATION_INTERVAL_MS; sends alert.triggered once when the condition starts to hold and alert.resolved once when it stops',
  })
  async create(@Body() body: CreateAlertRuleRequestDto, @Ctx() ctx: RequestContext): Promise<AlertRuleDto> {
    const accountId = accountOf(ctx);
    if (body.trunk_id !== undefined) await this.checkTrunk(accountId, body.trunk_id);
    const created: WebhookWrite & { ruleId: string } = await this.commands.execute(
      new CreateAlertRule(accountId, body, eventMetadata(ctx)),
    );
    await this.edge.settled(created.position);
    return this.queries.execute(new GetAlertRule(accountId, created.ruleId));
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'deleteAlertRule',
    description: 'Deletes an alert rule; it is evaluated no more.',
    summary: 'Delete an alert rule',
  })
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<void> {
    const written: WebhookWrite = await this.commands.execute(
      new DeleteAlertRule(id, accountOf(ctx), eventMetadata(ctx)),
    );
    await this.edge.settled(written.position);
  }

  /** Another account's trunk is reported exactly like a missing one. */
  private async checkTrunk(accountId: string, trunkId: string): Promise<void> {
    await this.queries.execute(new GetTrunk(accountId, trunkId)).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === 'not_found')
        throw invalidField('trunk_id', `trunk ${trunkId} does not exist in this account`, 'unknown_reference');
      throw error;
    });
  }
}
