import {
  comparePositions,
  decodePosition,
  encodePosition,
  type GlobalPosition,
  type StoredEvent,
} from '../../infrastructure/event-store/event-store.port';
import { type AuditCheckpointRecorded, isAuditCheckpoint } from '../domain/audit-checkpoint.event';
import { accountOfEvent } from '../domain/audit-resources';
import { MerkleHeads } from '../verify/merkle-heads';

interface AccountState {
  heads: MerkleHeads;
  events: number;
  /** The last event of the account that is not a checkpoint. */
  lastChange: GlobalPosition | null;
  /** Whether an event came after everything the last checkpoint covers. */
  unsealed: boolean;
}

/**
 * What the checkpointer knows of the log: for every account, its stream heads and whether a
 * checkpoint covers its last event. Built by reading the global log in order (from the start
 * after a restart), so it needs nothing stored besides the events themselves.
 */
export class AccountSeals {
  private readonly accounts = new Map<string, AccountState>();
  private position: GlobalPosition | null = null;

  /** The last position applied: what the next read continues after, and what a seal covers. */
  get through(): GlobalPosition | null {
    return this.position;
  }

  apply(e: StoredEvent): void {
    this.position = e.position;
    const accountId = accountOfEvent(e.data);
    if (!accountId) return;
    const state = this.stateOf(accountId);
    state.heads.set({ streamId: e.streamId, revision: e.revision, hash: e.hash });
    state.events += 1;
    if (!isAuditCheckpoint(e)) {
      state.lastChange = e.position;
      state.unsealed = true;
    } else if (state.lastChange && comparePositions(decodePosition(e.data.through), state.lastChange) >= 0) {
      state.unsealed = false;
    }
  }

  /** The checkpoints due now: one per account with an event no checkpoint covers yet. */
  due(recordedAt: Date): AuditCheckpointRecorded['data'][] {
    const through = this.position;
    if (!through) return [];
    const seals: AuditCheckpointRecorded['data'][] = [];
    for (const [accountId, state] of this.accounts) {
      if (!state.unsealed) continue;
      seals.push({
        account_id: accountId,
        through: encodePosition(through),
        root: state.heads.root(),
        streams: state.heads.size,
        events: state.events,
        recorded_at: recordedAt.toISOString(),
      });
    }
    return seals;
  }

  /** A seal was appended: the account is covered until its next event (reading it back confirms). */
  sealed(accountId: string): void {
    const state = this.accounts.get(accountId);
    if (state) state.unsealed = false;
  }

  private stateOf(accountId: string): AccountState {
    let state = this.accounts.get(accountId);
    if (!state) {
      state = { heads: new MerkleHeads(), events: 0, lastChange: null, unsealed: false };
      this.accounts.set(accountId, state);
    }
    return state;
  }
}
