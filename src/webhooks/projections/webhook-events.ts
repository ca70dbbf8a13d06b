import { StoredEvent } from '../../infrastructure/event-store/event-store.port';
import { eventGuard } from '../../shared/event-guard';
import { CALLS_PER_EVENT, CallsCompleted } from '../domain/calls-completed.event';
import { AlertResolved, AlertTriggered } from '../domain/alert-rule.events';
import { TrunkEvent } from '../../trunks/domain/trunk.events';
import { WebhookEndpointPinged } from '../domain/webhook-endpoint.events';
import { derivedId } from '../domain/deterministic-id';
import { CALL_LIST_ITEM_KEYS } from '../../calls/contracts/call-list-item';
import { ExportCompleted } from '../../exports/domain/export.events';

/** One webhook event (Standard Webhooks payload `{id, type, created_at, data}`) and who gets it. */
export interface WebhookEvent {
  id: string;
  type: string;
  accountId: string;
  createdAt: string;
  data: object;
  /** Set for `ping`: only the endpoint that asked. */
  onlyEndpoint?: string;
}

/** The stored events that stand for webhook events. */
export const isSourceEvent = eventGuard<
  TrunkEvent | AlertTriggered | AlertResolved | CallsCompleted | WebhookEndpointPinged | ExportCompleted
>({
  TrunkCreated: true,
  TrunkUpdated: true,
  SipPasswordRotated: true,
  TrunkDeleted: true,
  TrunkHealthChanged: true,
  AlertTriggered: true,
  AlertResolved: true,
  CallsCompleted: true,
  WebhookEndpointPinged: true,
  ExportCompleted: true,
});

/** The account a source event's webhook events go to (null: the event stands for none). */
export function sourceAccountOf(event: StoredEvent): string | null {
  return isSourceEvent(event) ? event.data.account_id : null;
}

/**
 * The webhook events a stored event stands for. Pure: ids derive from the stored event's id, so a
 * replay yields the same events. Trunk payloads are built field by field from a list of public
 * fields, so a secret (even sealed) can never reach a receiver.
 */
export function webhookEventsOf(event: StoredEvent): WebhookEvent[] {
  if (!isSourceEvent(event)) return [];
  const base = (type: string, accountId: string, data: object, seed = event.id): WebhookEvent => ({
    id: derivedId('evt', seed),
    type,
    accountId,
    createdAt: event.recordedAt.toISOString(),
    data,
  });
  switch (event.type) {
    case 'TrunkCreated': {
      const d = event.data;
      return [
        base('trunk.created', d.account_id, {
          id: d.trunk_id,
          name: d.name,
          status: 'active',
          ai_provider: d.ai_provider,
          sip_username: d.sip_username,
          created_at: d.created_at,
        }),
      ];
    }
    case 'TrunkUpdated': {
      const d = event.data;
      const { wiring, ...settings } = d.changes;
      const publicWiring = {
        ...(wiring?.elevenlabs_agent_id !== undefined ? { elevenlabs_agent_id: wiring.elevenlabs_agent_id } : {}),
        ...(wiring?.custom_endpoint !== undefined ? { custom_endpoint: wiring.custom_endpoint } : {}),
      };
      const changedFields = [...Object.keys(settings), ...Object.keys(wiring ?? {})].sort();
      const updated = base('trunk.updated', d.account_id, {
        id: d.trunk_id,
        changed_fields: changedFields,
        changes: { ...settings, ...publicWiring },
        updated_at: d.updated_at,
      });
      if (d.changes.status === undefined) return [updated];
      // An operator's PATCH of status is a status change too, so one subscription sees them all.
      const status = statusChange(d.trunk_id, d.changes.status, 'operator', null, d.updated_at);
      return [updated, base('trunk.status_changed', d.account_id, status, `${event.id}:status`)];
    }
    case 'SipPasswordRotated': {
      const d = event.data;
      return [
        base('trunk.password_rotated', d.account_id, {
          id: d.trunk_id,
          sip_username: d.sip_username,
          rotated_at: d.rotated_at,
        }),
      ];
    }
    case 'TrunkDeleted': {
      const d = event.data;
      return [
        base('trunk.deleted', d.account_id, {
          id: d.trunk_id,
          name: d.name,
          sip_username: d.sip_username,
          deleted_at: d.deleted_at,
        }),
      ];
    }
    case 'TrunkHealthChanged': {
      const d = event.data;
      return [
        base(
          'trunk.status_changed',
          d.account_id,
          statusChange(d.trunk_id, d.status, 'health', d.reason, d.changed_at),
        ),
      ];
    }
    case 'AlertTriggered':
    case 'AlertResolved': {
      const { account_id, rule_id, ...rest } = event.data;
      return [
        base(event.type === 'AlertTriggered' ? 'alert.triggered' : 'alert.resolved', account_id, { rule_id, ...rest }),
      ];
    }
    case 'CallsCompleted': {
      const out: WebhookEvent[] = [];
      for (let i = 0; i < event.data.calls.length; i += CALLS_PER_EVENT) {
        out.push(
          base(
            'call.completed',
            event.data.account_id,
            { calls: event.data.calls.slice(i, i + CALLS_PER_EVENT).map(withListFields) },
            `${event.id}:${i}`,
          ),
        );
      }
      return out;
    }
    case 'ExportCompleted': {
      const d = event.data;
      return [
        base('export.completed', d.account_id, {
          id: d.export_id,
          status: 'completed',
          format: d.format,
          rows: d.rows,
          bytes: d.bytes,
          file_url: `/v1/exports/${d.export_id}/file`,
          completed_at: d.completed_at,
          expires_at: d.expires_at,
        }),
      ];
    }
    case 'WebhookEndpointPinged':
      return [
        {
          ...base('ping', event.data.account_id, {
            endpoint_id: event.data.endpoint_id,
            message: 'A test event from Trunkline',
          }),
          id: event.data.event_id,
          onlyEndpoint: event.data.endpoint_id,
        },
      ];
    default:
      return [];
  }
}

export function payloadOf(event: WebhookEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt, data: event.data });
}

/**
 * CallsCompleted events recorded before call.completed carried the whole list form lack its
 * later fields: they are sent as null (billable_seconds as 0), in the list's key order, so every
 * delivery has the one shape the document describes.
 */
function withListFields(call: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of CALL_LIST_ITEM_KEYS) out[key] = key in call ? call[key] : key === 'billable_seconds' ? 0 : null;
  return out;
}

/** `trunk.status_changed`'s payload, whether an operator's PATCH or the health monitor changed it. */
function statusChange(
  id: string,
  status: string,
  cause: 'operator' | 'health',
  reason: string | null,
  changedAt: string,
): Record<string, unknown> {
  return { id, status, cause, reason, changed_at: changedAt };
}
