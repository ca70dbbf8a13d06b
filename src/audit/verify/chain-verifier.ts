import { timingSafeEqual } from 'node:crypto';
import { eventHash } from '../../infrastructure/event-store/event-hash';
import {
  comparePositions,
  decodePosition,
  type GlobalPosition,
} from '../../infrastructure/event-store/event-store.port';
import { isAuditCheckpoint } from '../domain/audit-checkpoint.event';
import { type AuditEvent, chainedRecordOf } from './audit-record';
import { MerkleHeads, type StreamHead } from './merkle-heads';
import { UndoRing } from './undo-ring';

export type BreakReason =
  | 'malformed'
  | 'out_of_order'
  | 'revision_gap'
  | 'hash_mismatch'
  | 'previous_hash_mismatch'
  | 'unchained_after_chained'
  | 'checkpoint_mismatch';

/** The first place the chain does not hold. */
export interface ChainBreak {
  position: string;
  event_id: string;
  stream_id: string;
  revision: number;
  reason: BreakReason;
  message: string;
}

export interface VerifyOutcome {
  verified: boolean;
  /** Events checked (up to the break, when there is one). */
  events: number;
  /** The last event checked. */
  head: { position: string; event_id: string; stream_id: string; revision: number; hash: string | null } | null;
  /** Merkle root and count of the stream heads after the last event checked. */
  root: string;
  streams: number;
  checkpoints: { verified: number; unverifiable: number };
  /** Events written before the chain existed (EventStoreDB only): kept, not hashed. */
  unchained: number;
  break: ChainBreak | null;
}

/**
 * Checks an account's events fed in global order, in constant memory (the heads, and a bounded
 * window of recent changes): each event's hash recomputed from its record, its revision and
 * previous hash continuing its stream, and each checkpoint's root, stream and event counts
 * recomputed as of its `through`. Stops at the first break.
 */
export class ChainVerifier {
  private readonly heads = new MerkleHeads();
  private readonly recent = new UndoRing();
  private count = 0;
  private last: AuditEvent | null = null;
  private lastPosition: GlobalPosition | null = null;
  private failure: ChainBreak | null = null;
  private readonly checkpoints = { verified: 0, unverifiable: 0 };
  private unchained = 0;

  constructor(private readonly accountId: string) {}

  /** A windowed export starts from the heads before its window and the count of events there. */
  startFrom(heads: readonly StreamHead[], eventsBefore: number): void {
    for (const head of heads) this.heads.set(head);
    this.count = eventsBefore;
  }

  get broken(): ChainBreak | null {
    return this.failure;
  }

  /** false once the chain is broken (later events are not looked at). */
  add(event: AuditEvent): boolean {
    if (this.failure) return false;
    const reason = this.check(event);
    if (reason) {
      this.failure = { ...where(event), ...reason };
      return false;
    }
    return true;
  }

  result(): VerifyOutcome {
    const last = this.last;
    return {
      verified: this.failure === null,
      events: this.count,
      head: last && { ...where(last), event_id: last.id, hash: last.hash },
      root: this.heads.root(),
      streams: this.heads.size,
      checkpoints: { ...this.checkpoints },
      unchained: this.unchained,
      break: this.failure,
    };
  }

  private check(e: AuditEvent): Pick<ChainBreak, 'reason' | 'message'> | null {
    let position: GlobalPosition;
    try {
      position = decodePosition(e.position);
    } catch {
      return { reason: 'malformed', message: `position ${JSON.stringify(e.position)} is not a global position` };
    }
    if (this.lastPosition && comparePositions(position, this.lastPosition) <= 0)
      return { reason: 'out_of_order', message: `position ${e.position} does not follow ${this.last?.position}` };
    const head = this.heads.head(e.stream_id);
    const broken = linkProblem(e, head);
    if (broken) return broken;
    if (e.hash === null) this.unchained += 1;
    this.recent.push({ position, streamId: e.stream_id, previous: head });
    this.heads.set({ streamId: e.stream_id, revision: e.revision, hash: e.hash });
    this.count += 1;
    this.last = e;
    this.lastPosition = position;
    return isAuditCheckpoint(e) ? this.checkpoint(e.data) : null;
  }

  private checkpoint(data: unknown): Pick<ChainBreak, 'reason' | 'message'> | null {
    const seal = data as {
      account_id?: unknown;
      through?: unknown;
      root?: unknown;
      streams?: unknown;
      events?: unknown;
    };
    if (seal.account_id !== this.accountId) return null;
    let through: GlobalPosition;
    try {
      through = decodePosition(String(seal.through));
    } catch {
      return { reason: 'malformed', message: 'checkpoint has no valid `through` position' };
    }
    const window = this.recent.since(through);
    if (!window) {
      this.checkpoints.unverifiable += 1;
      return null;
    }
    const { root, streams } = this.heads.rootBefore(window.earlier);
    const events = this.count - window.after;
    this.recent.dropThrough(through);
    if (root === seal.root && streams === seal.streams && events === seal.events) {
      this.checkpoints.verified += 1;
      return null;
    }
    return {
      reason: 'checkpoint_mismatch',
      message:
        `the checkpoint sealed ${String(seal.events)} events in ${String(seal.streams)} streams (root ${String(seal.root)})` +
        ` through ${String(seal.through)}; the stored events give ${events} in ${streams} (root ${root}):` +
        ' an event before it was removed, added or rewritten',
    };
  }
}

function linkProblem(e: AuditEvent, head: StreamHead | undefined): Pick<ChainBreak, 'reason' | 'message'> | null {
  const expected = head ? head.revision + 1 : 0;
  if (e.revision !== expected)
    return {
      reason: 'revision_gap',
      message: `expected revision ${expected} of ${e.stream_id}, found ${e.revision}: an event is missing, added or moved`,
    };
  if (e.hash === null)
    return head && head.hash !== null
      ? { reason: 'unchained_after_chained', message: `event without a hash after chained events of ${e.stream_id}` }
      : null;
  if (!sameDigest(eventHash(chainedRecordOf(e)), e.hash))
    return { reason: 'hash_mismatch', message: 'the stored event does not hash to its recorded hash: it was changed' };
  if (!sameDigest(e.previous_hash, head?.hash ?? null))
    return {
      reason: 'previous_hash_mismatch',
      message: `the event does not point back to the hash of the event before it in ${e.stream_id}`,
    };
  return null;
}

const where = (e: AuditEvent) => ({
  position: e.position,
  event_id: e.id,
  stream_id: e.stream_id,
  revision: e.revision,
});

/**
 * Digests compared in constant time: chain hashes are public, but one rule for every digest
 * comparison in src (test/e2e/security-api-keys.e2e.spec.ts) leaves nothing to judge case by case.
 */
function sameDigest(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
