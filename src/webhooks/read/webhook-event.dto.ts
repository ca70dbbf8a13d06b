import { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CallListItemDto } from '../../calls/read/call.dto';
import { ProviderSettingsDto, VadDto } from '../../trunks/contracts/trunk-settings.dto';
import { PROVIDERS } from '../../trunks/domain/trunk.types';
import { ALERT_COMPARISONS, ALERT_METRICS } from '../domain/alert-rule.events';

/**
 * The payload of every webhook event (Standard Webhooks: `{id, type, created_at, data}`), one
 * named schema per type: `<Name>WebhookEvent` in components.schemas, each listed under
 * `x-webhooks` by the OpenAPI document (src/platform/openapi/openapi.webhooks.ts). The e2e suite
 * validates every delivery it receives against them.
 */
class TrunkCreatedWebhookData {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['active'] }) status!: string;
  @ApiProperty({ enum: [...PROVIDERS] }) ai_provider!: string;
  @ApiProperty() sip_username!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

class TrunkWebhookChanges {
  @ApiPropertyOptional() name?: string;
  @ApiPropertyOptional({ enum: ['active', 'inactive'] }) status?: string;
  @ApiPropertyOptional({ type: String, nullable: true }) system_prompt?: string | null;
  @ApiPropertyOptional({ type: VadDto, nullable: true }) vad?: VadDto | null;
  @ApiPropertyOptional({ type: ProviderSettingsDto, nullable: true }) provider_settings?: ProviderSettingsDto | null;
  @ApiPropertyOptional({ type: [String], nullable: true }) allowed_addresses?: string[] | null;
  @ApiPropertyOptional() elevenlabs_agent_id?: string;
  @ApiPropertyOptional() custom_endpoint?: string;
}

class TrunkUpdatedWebhookData {
  @ApiProperty() id!: string;
  @ApiProperty({
    type: [String],
    description: 'Every field the update set, provider keys included (their values are never sent)',
  })
  changed_fields!: string[];
  @ApiProperty({ type: TrunkWebhookChanges, description: 'The new values of the public fields that changed' })
  changes!: TrunkWebhookChanges;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

class TrunkStatusChangedWebhookData {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['active', 'inactive', 'error'] }) status!: string;
  @ApiProperty({
    enum: ['operator', 'health'],
    description: 'operator: a PATCH of status; health: the trunk health rule (docs/analytics.md)',
  })
  cause!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Why, in words (health changes); null for an operator' })
  reason!: string | null;
  @ApiProperty({ format: 'date-time' }) changed_at!: string;
}

class TrunkPasswordRotatedWebhookData {
  @ApiProperty() id!: string;
  @ApiProperty() sip_username!: string;
  @ApiProperty({ format: 'date-time' }) rotated_at!: string;
}

class TrunkDeletedWebhookData {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() sip_username!: string;
  @ApiProperty({ format: 'date-time' }) deleted_at!: string;
}

class CallCompletedWebhookData {
  @ApiProperty({ type: [CallListItemDto], maxItems: 100, description: 'Calls in the list form of GET /v1/calls' })
  calls!: CallListItemDto[];
}

class AlertWebhookData {
  @ApiProperty() rule_id!: string;
  @ApiProperty({ enum: [...ALERT_METRICS] }) metric!: string;
  @ApiProperty({ enum: [...ALERT_COMPARISONS] }) comparison!: string;
  @ApiProperty() threshold!: number;
  @ApiProperty({ type: 'integer' }) window_minutes!: number;
  @ApiProperty({ type: String, nullable: true, description: 'null: every trunk of the account' })
  trunk_id!: string | null;
  @ApiProperty({ description: 'The metric over the window at this evaluation' }) value!: number;
  @ApiProperty({ type: 'integer', description: 'Calls in the window' }) calls!: number;
}

class AlertTriggeredWebhookData extends AlertWebhookData {
  @ApiProperty({ format: 'date-time' }) triggered_at!: string;
}

class AlertResolvedWebhookData extends AlertWebhookData {
  @ApiProperty({ format: 'date-time' }) resolved_at!: string;
}

class ExportCompletedWebhookData {
  @ApiProperty({ example: 'exp_…' }) id!: string;
  @ApiProperty({ enum: ['completed'] }) status!: string;
  @ApiProperty({ enum: ['csv', 'ndjson', 'parquet'] }) format!: string;
  @ApiProperty({ type: 'integer', description: 'Calls in the file' }) rows!: number;
  @ApiProperty({ type: 'integer', description: 'Size of the file in bytes' }) bytes!: number;
  @ApiProperty({ description: 'GET it (same key rules as the API) until expires_at' }) file_url!: string;
  @ApiProperty({ format: 'date-time' }) completed_at!: string;
  @ApiProperty({ format: 'date-time', description: 'The file is deleted after this instant' }) expires_at!: string;
}

class PingWebhookData {
  @ApiProperty() endpoint_id!: string;
  @ApiProperty() message!: string;
}

/** One event class per type: the envelope with `type` fixed and `data` of that type's shape. */
function webhookEvent(type: string, name: string, data: Type, description: string): Type {
  class WebhookEvent {
    @ApiProperty({ description: 'Unique per event; the webhook-id header; the same on every retry' }) id!: string;
    @ApiProperty({ enum: [type] }) type!: string;
    @ApiProperty({ format: 'date-time' }) created_at!: string;
    @ApiProperty({ type: data, description }) data!: object;
  }
  Object.defineProperty(WebhookEvent, 'name', { value: `${name}WebhookEvent` });
  return WebhookEvent;
}

export const WEBHOOK_EVENT_SCHEMAS: readonly Type[] = [
  webhookEvent('trunk.created', 'TrunkCreated', TrunkCreatedWebhookData, 'The trunk as created (no secret)'),
  webhookEvent('trunk.updated', 'TrunkUpdated', TrunkUpdatedWebhookData, 'What an update changed (no secret)'),
  webhookEvent('trunk.deleted', 'TrunkDeleted', TrunkDeletedWebhookData, 'The trunk that was deleted'),
  webhookEvent(
    'trunk.status_changed',
    'TrunkStatusChanged',
    TrunkStatusChangedWebhookData,
    'A status change: by an operator, or by the trunk health rule (active ↔ error)',
  ),
  webhookEvent(
    'trunk.password_rotated',
    'TrunkPasswordRotated',
    TrunkPasswordRotatedWebhookData,
    'A rotation (never the password)',
  ),
  webhookEvent(
    'call.completed',
    'CallCompleted',
    CallCompletedWebhookData,
    'The calls of one ingest request, at most 100',
  ),
  webhookEvent('alert.triggered', 'AlertTriggered', AlertTriggeredWebhookData, 'An alert rule started to hold'),
  webhookEvent('alert.resolved', 'AlertResolved', AlertResolvedWebhookData, 'An alert rule stopped holding'),
  webhookEvent(
    'export.completed',
    'ExportCompleted',
    ExportCompletedWebhookData,
    'An export job finished: its file can be downloaded until expires_at',
  ),
  webhookEvent('ping', 'Ping', PingWebhookData, 'A test event, sent only to the endpoint that asked'),
];
