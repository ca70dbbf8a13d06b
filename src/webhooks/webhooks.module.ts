import { readFileSync } from 'node:fs';
import { DynamicModule, Module } from '@nestjs/common';
import { CALL_BATCH_LISTENER } from '../calls/ingestion/call-batch-listener.port';
import { WebhookReadModels } from './projections/webhook-read-models.service';
import { AlertRulesReadController, WebhookEndpointsReadController } from './http/webhooks-read.controller';
import {
  GetAlertRuleHandler,
  GetWebhookDeliveryHandler,
  GetWebhookEndpointHandler,
  ListAlertRulesHandler,
  ListWebhookDeliveriesHandler,
  ListWebhookEndpointsHandler,
} from './read/webhook.queries';
import { CreateAlertRuleHandler, DeleteAlertRuleHandler, EvaluateAlertRuleHandler } from './write/alert-rule.handlers';
import { AlertRulesWriteController } from './http/alert-rules.controller';
import { CommandRunner } from '../eventsourcing/command-runner';
import { WebhookDeliveriesWriteController } from './http/webhook-deliveries.controller';
import { ReplayWebhookDeliveryHandler } from './write/replay-delivery.handler';
import { WebhookEndpointsWriteController } from './http/webhook-endpoints.controller';
import { WebhookEndpointSupport } from './http/webhook-endpoint-support';
import { RecordCallsCompletedHandler } from './write/record-calls-completed.handler';
import { DecideDeliveryOutcomeHandler } from './write/decide-delivery-outcome.handler';
import { WEBHOOK_SETTINGS, WebhookSettings } from './webhooks.settings';
import {
  CreateWebhookEndpointHandler,
  DeleteWebhookEndpointHandler,
  DisableWebhookEndpointHandler,
  PingWebhookEndpointHandler,
  RotateWebhookSecretHandler,
  UpdateWebhookEndpointHandler,
} from './write/webhook-endpoint.handlers';
import { AlertEvaluator } from './alerts/alert.evaluator';
import { CallCompletedRecorder } from './calls/call-completed.recorder';
import { DeliveryRetentionSweeper } from './delivery/delivery-retention.sweeper';
import { WebhookDeliveryWorker } from './delivery/delivery.worker';
import { EndpointSecrets } from './delivery/endpoint-secrets';
import { HttpsWebhookSender, WEBHOOK_SENDER, WebhookSender } from './delivery/webhook.sender';

/**
 * Webhooks and latency alerts: endpoint, delivery and alert-rule aggregates, their read models
 * and routes, the delivery worker, the retention sweeper and the alert evaluator. Ingestion sees only CALL_BATCH_LISTENER.
 */
@Module({
  controllers: [
    WebhookEndpointsWriteController,
    WebhookEndpointsReadController,
    WebhookDeliveriesWriteController,
    AlertRulesWriteController,
    AlertRulesReadController,
  ],
  providers: [
    CommandRunner,
    WebhookReadModels,
    WebhookEndpointSupport,
    EndpointSecrets,
    CallCompletedRecorder,
    { provide: CALL_BATCH_LISTENER, useExisting: CallCompletedRecorder },
    {
      provide: WEBHOOK_SENDER,
      inject: [WEBHOOK_SETTINGS],
      useFactory: (settings: WebhookSettings): WebhookSender =>
        new HttpsWebhookSender({
          timeoutMs: settings.timeoutMs,
          allowPrivate: settings.allowPrivate,
          ca: settings.caFile ? readFileSync(settings.caFile, 'utf8') : null,
        }),
    },
    WebhookDeliveryWorker,
    DeliveryRetentionSweeper,
    AlertEvaluator,
    CreateWebhookEndpointHandler,
    UpdateWebhookEndpointHandler,
    RotateWebhookSecretHandler,
    PingWebhookEndpointHandler,
    DeleteWebhookEndpointHandler,
    ReplayWebhookDeliveryHandler,
    RecordCallsCompletedHandler,
    DecideDeliveryOutcomeHandler,
    DisableWebhookEndpointHandler,
    EvaluateAlertRuleHandler,
    CreateAlertRuleHandler,
    DeleteAlertRuleHandler,
    ListWebhookEndpointsHandler,
    GetWebhookEndpointHandler,
    GetWebhookDeliveryHandler,
    ListWebhookDeliveriesHandler,
    ListAlertRulesHandler,
    GetAlertRuleHandler,
  ],
  exports: [CALL_BATCH_LISTENER, WebhookReadModels],
})
export class WebhooksModule {
  static forRoot(settings: WebhookSettings): DynamicModule {
    return { module: WebhooksModule, providers: [{ provide: WEBHOOK_SETTINGS, useValue: settings }] };
  }
}
