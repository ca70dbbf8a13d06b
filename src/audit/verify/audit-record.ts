import { type ChainedRecord, sealSecrets } from '../../infrastructure/event-store/event-hash';
import { encodePosition, type StoredEvent } from '../../infrastructure/event-store/event-store.port';
import { type ResourceType, resourceOf } from '../domain/audit-resources';

/** Who caused an event: the API key, the client's address and the request (X-Request-Id). */
export interface AuditActor {
  /** API key id, or a system actor (`system:webhooks`, `system:alerts`, …). */
  key_id: string | null;
  source_address: string | null;
  request_id: string | null;
}

/**
 * One event as every audit output shows it (list items, export lines): the stored record with
 * every sealed secret replaced by the SHA-256 of its ciphertext (`{"sealed_sha256": …}`), so no
 * secret leaves the service, not even encrypted, and the hash still recomputes from what is shown.
 */
export interface AuditEvent {
  id: string;
  /** Global position, `hi:lo`: the order of the whole log. */
  position: string;
  stream_id: string;
  revision: number;
  type: string;
  resource_type: ResourceType | null;
  resource_id: string | null;
  actor: AuditActor;
  /** When it was recorded (the time the hash covers). */
  occurred_at: string;
  data: unknown;
  metadata: unknown;
  hash: string | null;
  previous_hash: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function auditEventOf(e: StoredEvent): AuditEvent {
  const resource = resourceOf(e.streamId);
  return {
    id: e.id,
    position: encodePosition(e.position),
    stream_id: e.streamId,
    revision: e.revision,
    type: e.type,
    resource_type: resource?.type ?? null,
    resource_id: resource?.id ?? null,
    actor: {
      key_id: text(e.metadata.actor),
      source_address: text(e.metadata.source_address),
      request_id: text(e.metadata.correlation_id),
    },
    occurred_at: e.recordedAt.toISOString(),
    data: sealSecrets(e.data),
    metadata: sealSecrets(e.metadata),
    hash: e.hash,
    previous_hash: e.previousHash,
  };
}

/** The record the event's hash was computed over, from what an audit output shows. */
export const chainedRecordOf = (e: AuditEvent): ChainedRecord => ({
  id: e.id,
  stream_id: e.stream_id,
  revision: e.revision,
  type: e.type,
  data: e.data,
  metadata: e.metadata,
  recorded_at: e.occurred_at,
  previous_hash: e.previous_hash,
});
