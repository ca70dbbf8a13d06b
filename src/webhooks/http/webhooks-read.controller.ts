import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiTags, ApiOperation } from '@nestjs/swagger';
import { WEBHOOK_EVENT_SCHEMAS } from '../read/webhook-event.dto';
import { CursorPaginationQueryDto } from '../../platform/http/pagination';
import { accountOf, Ctx, RequestContext } from '../../platform/http/request-context';
import { AlertRuleDto, AlertRuleListDto } from '../read/alert-rule.dto';
import {
  ListDeliveriesQueryDto,
  WebhookDeliveryListDto,
  WebhookEndpointDto,
  WebhookEndpointListDto,
} from '../read/webhook.dto';
import {
  GetAlertRule,
  GetWebhookEndpoint,
  ListAlertRules,
  ListWebhookDeliveries,
  ListWebhookEndpoints,
} from '../read/webhook.queries';

@ApiTags('webhooks')
@ApiBearerAuth()
// The payload of every webhook event, published as named schemas (and under x-webhooks).
@ApiExtraModels(...WEBHOOK_EVENT_SCHEMAS)
@Controller('v1/webhook-endpoints')
export class WebhookEndpointsReadController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listWebhookEndpoints',
    description: "Lists the account's webhook endpoints, newest first, without secrets; pages by offset or cursor.",
    summary: 'List webhook endpoints',
  })
  @ApiOkResponse({ type: WebhookEndpointListDto, description: 'Newest first; secrets are never returned' })
  list(@Query() query: CursorPaginationQueryDto, @Ctx() ctx: RequestContext): Promise<WebhookEndpointListDto> {
    return this.queries.execute(new ListWebhookEndpoints(accountOf(ctx), query.limit, query.offset, query.cursor));
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getWebhookEndpoint',
    description: 'Reads one webhook endpoint, with its last successful delivery, without its secret.',
    summary: 'Get a webhook endpoint',
  })
  @ApiOkResponse({ type: WebhookEndpointDto })
  get(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<WebhookEndpointDto> {
    return this.queries.execute(new GetWebhookEndpoint(accountOf(ctx), id));
  }

  @Get(':id/deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    description:
      "Lists an endpoint's deliveries, newest first, with their attempts and outcome; filter by status; pages by offset or cursor.",
    summary: "List a webhook endpoint's deliveries",
  })
  @ApiOkResponse({
    type: WebhookDeliveryListDto,
    description: 'Newest first: status, attempts with their response codes, next attempt',
  })
  deliveries(
    @Param('id') id: string,
    @Query() query: ListDeliveriesQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookDeliveryListDto> {
    return this.queries.execute(
      new ListWebhookDeliveries(accountOf(ctx), id, query.limit, query.offset, query.status, query.cursor),
    );
  }
}

@ApiTags('alerts')
@ApiBearerAuth()
@Controller('v1/alert-rules')
export class AlertRulesReadController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    operationId: 'listAlertRules',
    description: "Lists the account's alert rules, newest first; pages by offset or cursor.",
    summary: 'List alert rules',
  })
  @ApiOkResponse({ type: AlertRuleListDto, description: 'Newest first' })
  list(@Query() query: CursorPaginationQueryDto, @Ctx() ctx: RequestContext): Promise<AlertRuleListDto> {
    return this.queries.execute(new ListAlertRules(accountOf(ctx), query.limit, query.offset, query.cursor));
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getAlertRule',
    description: 'Reads one alert rule with its current state.',
    summary: 'Get an alert rule',
  })
  @ApiOkResponse({ type: AlertRuleDto })
  get(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<AlertRuleDto> {
    return this.queries.execute(new GetAlertRule(accountOf(ctx), id));
  }
}
