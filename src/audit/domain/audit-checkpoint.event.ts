import { eventGuard } from '../../shared/event-guard';

/**
 * The account-wide seal: the Merkle root over the heads of all the account's streams (every event
 * of the account up to global position `through`), recorded at least once a minute while the
 * account has events. It is itself an event of the account, chained in its own stream, so the
 * next checkpoint covers this one. docs/audit.md.
 */
export type AuditCheckpointRecorded = {
  type: 'AuditCheckpointRecorded';
  data: {
    account_id: string;
    /** Global position (hi:lo) of the last event the root covers, of any account. */
    through: string;
    /** Merkle root of the account's stream heads at `through` (merkle-heads.ts). */
    root: string;
    /** Streams of the account at `through`. */
    streams: number;
    /** Events of the account at `through`, checkpoints included. */
    events: number;
    recorded_at: string;
  };
};

export const isAuditCheckpoint = eventGuard<AuditCheckpointRecorded>({ AuditCheckpointRecorded: true });

export const auditCheckpointStream = (accountId: string): string => `audit-checkpoint-${accountId}`;
