import type { Decider } from '../../shared/decider';
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

/** Record a seal the checkpointer computed (the Merkle root is computed from the log, not decided). */
export interface RecordAuditCheckpointCommand {
  seal: AuditCheckpointRecorded['data'];
}

/**
 * Nothing to decide: the seal is a fact about the log up to `through`, recorded as is. Appended
 * at any version: a seal never depends on the ones before it in its stream.
 */
export const auditCheckpointDecider: Decider<RecordAuditCheckpointCommand, AuditCheckpointRecorded, null> = {
  decide: ({ seal }) => [{ type: 'AuditCheckpointRecorded', data: seal }],
  evolve: (state) => state,
  initialState: () => null,
};
