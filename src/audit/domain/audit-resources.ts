import { accountStream } from '../../accounts/domain/account.decider';
import { apiKeyStream } from '../../api-keys/domain/api-key.decider';
import { agentAccessStream } from '../../trunks/domain/agent-access.decider';
import { trunkStream } from '../../trunks/domain/trunk.decider';
import { alertRuleStream } from '../../webhooks/domain/alert-rule.decider';
import { callsCompletedStream } from '../../webhooks/domain/calls-completed.event';
import { webhookDeliveryStream } from '../../webhooks/domain/webhook-delivery.decider';
import { webhookEndpointStream } from '../../webhooks/domain/webhook-endpoint.decider';
import { exportStream } from '../../exports/domain/export.decider';
import { auditCheckpointStream } from './audit-checkpoint.event';

/**
 * The audit log's resources: each is a kind of stream, named by the write side's own stream
 * functions, so a renamed stream cannot drift from what auditors filter on. Longer prefixes
 * first: `webhook-endpoint-` must win over a shorter one that also matches.
 */
export const RESOURCE_TYPES = [
  'account',
  'trunk',
  'agent_access',
  'api_key',
  'webhook_endpoint',
  'webhook_delivery',
  'alert_rule',
  'calls_batch',
  'export',
  'audit_checkpoint',
] as const;

export type ResourceType = (typeof RESOURCE_TYPES)[number];

const STREAM_OF: Record<ResourceType, (id: string) => string> = {
  account: accountStream,
  trunk: trunkStream,
  agent_access: agentAccessStream,
  api_key: apiKeyStream,
  webhook_endpoint: webhookEndpointStream,
  webhook_delivery: webhookDeliveryStream,
  alert_rule: alertRuleStream,
  calls_batch: callsCompletedStream,
  export: exportStream,
  audit_checkpoint: auditCheckpointStream,
};

export const streamOf = (type: ResourceType, id: string): string => STREAM_OF[type](id);

/** The stream-name prefix of a resource type: its stream function applied to an empty id. */
export const streamPrefixOf = (type: ResourceType): string => STREAM_OF[type]('');

const BY_PREFIX = RESOURCE_TYPES.map((type) => ({ type, prefix: streamPrefixOf(type) })).sort(
  (a, b) => b.prefix.length - a.prefix.length,
);

/** Which resource a stream is; null for streams no account owns (reservations, data keys). */
export function resourceOf(streamId: string): { type: ResourceType; id: string } | null {
  const match = BY_PREFIX.find(({ prefix }) => streamId.startsWith(prefix));
  return match ? { type: match.type, id: streamId.slice(match.prefix.length) } : null;
}

/** The account an event belongs to: every account-owned event carries `account_id` in its data. */
export function accountOfEvent(data: unknown): string | null {
  const account = (data as { account_id?: unknown } | null)?.account_id;
  return typeof account === 'string' ? account : null;
}
