import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ReadModelCodec } from '../../infrastructure/read-model/read-model.codec';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import {
  alertRuleViewCodec,
  DeliveryStatus,
  deliveryViewCodec,
  endpointViewCodec,
  webhookKeys,
} from '../projections/webhook-views';
import { notFound } from '../../shared/domain-error';
import { byCreation, readCursorPage } from '../../platform/http/cursor';
import { alertRuleDto, AlertRuleDto, AlertRuleListDto } from './alert-rule.dto';
import {
  deliveryDto,
  endpointDto,
  WebhookDeliveryDto,
  WebhookDeliveryListDto,
  WebhookEndpointDto,
  WebhookEndpointListDto,
} from './webhook.dto';

export class ListWebhookEndpoints {
  constructor(
    readonly accountId: string,
    readonly limit: number,
    readonly offset: number,
    readonly cursor?: string,
  ) {}
}
export class GetWebhookEndpoint {
  constructor(
    readonly accountId: string,
    readonly endpointId: string,
  ) {}
}
export class ListWebhookDeliveries {
  constructor(
    readonly accountId: string,
    readonly endpointId: string,
    readonly limit: number,
    readonly offset: number,
    readonly status: DeliveryStatus | undefined,
    readonly cursor?: string,
  ) {}
}
export class ListAlertRules {
  constructor(
    readonly accountId: string,
    readonly limit: number,
    readonly offset: number,
    readonly cursor?: string,
  ) {}
}
export class GetAlertRule {
  constructor(
    readonly accountId: string,
    readonly ruleId: string,
  ) {}
}

async function ownView<T extends { account_id: string }>(
  store: ReadModelStore,
  codec: ReadModelCodec<T>,
  key: string,
  accountId: string,
  what: string,
): Promise<T> {
  const view = codec.decode(await store.get(key));
  if (!view || view.account_id !== accountId) throw notFound(what);
  return view;
}

/** Newest first, like the other lists; one round trip per page. */
@QueryHandler(ListWebhookEndpoints)
export class ListWebhookEndpointsHandler implements IQueryHandler<ListWebhookEndpoints, WebhookEndpointListDto> {
  constructor(@Inject(READ_MODEL_STORE) private readonly store: ReadModelStore) {}

  async execute({ accountId, limit, offset, cursor }: ListWebhookEndpoints): Promise<WebhookEndpointListDto> {
    const { views, pagination } = await readCursorPage(
      this.store,
      { index: webhookKeys.endpointsOf(accountId), valuePrefix: webhookKeys.endpointPrefix, filters: [] },
      { limit, offset, cursor, order: 'desc' },
      endpointViewCodec.decodeAll,
      byCreation,
    );
    return { webhook_endpoints: views.map(endpointDto), pagination };
  }
}

@QueryHandler(GetWebhookEndpoint)
export class GetWebhookEndpointHandler implements IQueryHandler<GetWebhookEndpoint, WebhookEndpointDto> {
  constructor(@Inject(READ_MODEL_STORE) private readonly store: ReadModelStore) {}

  async execute({ accountId, endpointId }: GetWebhookEndpoint): Promise<WebhookEndpointDto> {
    return endpointDto(
      await ownView(this.store, endpointViewCodec, webhookKeys.endpoint(endpointId), accountId, 'Webhook endpoint'),
    );
  }
}

@QueryHandler(ListWebhookDeliveries)
export class ListWebhookDeliveriesHandler implements IQueryHandler<ListWebhookDeliveries, WebhookDeliveryListDto> {
  constructor(@Inject(READ_MODEL_STORE) private readonly store: ReadModelStore) {}

  async execute({
    accountId,
    endpointId,
    limit,
    offset,
    status,
    cursor,
  }: ListWebhookDeliveries): Promise<WebhookDeliveryListDto> {
    await ownView(this.store, endpointViewCodec, webhookKeys.endpoint(endpointId), accountId, 'Webhook endpoint');
    const index = status ? webhookKeys.deliveriesByStatus(endpointId, status) : webhookKeys.deliveriesOf(endpointId);
    const { views, pagination } = await readCursorPage(
      this.store,
      { index, valuePrefix: webhookKeys.deliveryPrefix, filters: [endpointId, status] },
      { limit, offset, cursor, order: 'desc' },
      deliveryViewCodec.decodeAll,
      byCreation,
    );
    return { deliveries: views.map(deliveryDto), pagination };
  }
}

@QueryHandler(ListAlertRules)
export class ListAlertRulesHandler implements IQueryHandler<ListAlertRules, AlertRuleListDto> {
  constructor(@Inject(READ_MODEL_STORE) private readonly store: ReadModelStore) {}

  async execute({ accountId, limit, offset, cursor }: ListAlertRules): Promise<AlertRuleListDto> {
    const { views, pagination } = await readCursorPage(
      this.store,
      { index: webhookKeys.alertRulesOf(accountId), valuePrefix: webhookKeys.alertRulePrefix, filters: [] },
      { limit, offset, cursor, order: 'desc' },
      alertRuleViewCodec.decodeAll,
      byCreation,
    );
    return { alert_rules: views.map(alertRuleDto), pagination };
  }
}

@QueryHandler(GetAlertRule)
export class GetAlertRuleHandler implements IQueryHandler<GetAlertRule, AlertRuleDto> {
  constructor(@Inject(READ_MODEL_STORE) private readonly store: ReadModelStore) {}

  async execute({ accountId, ruleId }: GetAlertRule): Promise<AlertRuleDto> {
    return alertRuleDto(
      await ownView(this.store, alertRuleViewCodec, webhookKeys.alertRule(ruleId), accountId, 'Alert rule'),
    );
  }
}

export class GetWebhookDelivery {
  constructor(
    readonly accountId: string,
    readonly deliveryId: string,
  ) {}
}

@QueryHandler(GetWebhookDelivery)
export class GetWebhookDeliveryHandler implements IQueryHandler<GetWebhookDelivery, WebhookDeliveryDto> {
  constructor(@Inject(READ_MODEL_STORE) private readonly store: ReadModelStore) {}

  async execute({ accountId, deliveryId }: GetWebhookDelivery): Promise<WebhookDeliveryDto> {
    return deliveryDto(
      await ownView(this.store, deliveryViewCodec, webhookKeys.delivery(deliveryId), accountId, 'Webhook delivery'),
    );
  }
}
