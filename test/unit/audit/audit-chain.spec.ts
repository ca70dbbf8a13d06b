import { randomUUID } from 'node:crypto';
import { AccountSeals } from '../../../src/audit/checkpoints/account-seals';
import { auditEventOf, type AuditEvent } from '../../../src/audit/verify/audit-record';
import { ChainVerifier } from '../../../src/audit/verify/chain-verifier';
import { fromCsvRow, parseCsvRow, toCsvRow } from '../../../src/audit/verify/export-format';
import { MerkleHeads } from '../../../src/audit/verify/merkle-heads';
import { chainBatch, GENESIS } from '../../../src/infrastructure/event-store/event-hash';
import type { StoredEvent } from '../../../src/infrastructure/event-store/event-store.port';

const ACCOUNT = 'acct_unit';

/** An account's log built the way the store builds it: links chained per stream, positions in order. */
class Log {
  readonly events: StoredEvent[] = [];
  private position = 0n;

  append(streamId: string, type = 'TrunkUpdated', data: object = {}): StoredEvent {
    const previous = [...this.events].reverse().find((e) => e.streamId === streamId);
    const head = previous ? { revision: previous.revision, hash: previous.hash } : GENESIS;
    const recordedAt = new Date(Date.UTC(2026, 10, 21, 10, 0, 0, this.events.length)).toISOString();
    const event = { id: randomUUID(), type, data: { account_id: ACCOUNT, ...data }, metadata: { actor: 'key_1' } };
    const [link] = chainBatch(streamId, head, [event], recordedAt);
    this.position += 1n;
    const stored: StoredEvent = {
      ...event,
      streamId,
      revision: head.revision + 1,
      position: { hi: this.position, lo: this.position },
      recordedAt: new Date(recordedAt),
      hash: link.hash,
      previousHash: link.previous_hash,
    };
    this.events.push(stored);
    return stored;
  }
}

const verify = (events: AuditEvent[]) => {
  const verifier = new ChainVerifier(ACCOUNT);
  for (const event of events) if (!verifier.add(event)) break;
  return verifier.result();
};

describe('Merkle root of the stream heads', () => {
  it('gives the root of the heads before later changes, as a tree built then would', () => {
    const now = new MerkleHeads();
    const then = new MerkleHeads();
    for (let i = 0; i < 5; i += 1) {
      now.set({ streamId: `s${i}`, revision: 0, hash: `h${i}` });
      then.set({ streamId: `s${i}`, revision: 0, hash: `h${i}` });
    }
    now.set({ streamId: 's2', revision: 1, hash: 'h2b' });
    now.set({ streamId: 's5', revision: 0, hash: 'h5' }); // a ninth-leaf tree would differ: 6 streams
    now.set({ streamId: 's6', revision: 0, hash: 'h6' });
    const before = now.rootBefore(
      new Map([
        ['s2', { streamId: 's2', revision: 0, hash: 'h2' }],
        ['s5', undefined],
        ['s6', undefined],
      ]),
    );
    expect(before).toEqual({ root: then.root(), streams: 5 });
    expect(now.root()).not.toBe(then.root());
    expect(now.size).toBe(7);
    expect(new MerkleHeads().root()).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('chain verifier', () => {
  it("verifies a log with checkpoints recorded a few events after their 'through'", () => {
    const log = new Log();
    const seals = new AccountSeals();
    log.append('account-a', 'AccountCreated');
    for (let i = 0; i < 20; i += 1) log.append(`trunk-${i % 4}`);
    for (const e of log.events) seals.apply(e);
    const [due] = seals.due(new Date());
    log.append('trunk-9'); // lands between the checkpointer's read and its append
    log.append('audit-checkpoint-a', 'AuditCheckpointRecorded', due);
    const outcome = verify(log.events.map(auditEventOf));
    expect(outcome).toMatchObject({ verified: true, events: 23, checkpoints: { verified: 1, unverifiable: 0 } });
  });

  it('names the first break: a changed event, a missing one, a forged checkpoint', () => {
    const log = new Log();
    for (let i = 0; i < 6; i += 1) log.append(`trunk-${i % 2}`, 'TrunkUpdated', { n: i });
    const events = log.events.map(auditEventOf);
    const changed = events.map((e, i) => (i === 3 ? { ...e, data: { ...(e.data as object), n: 99 } } : e));
    expect(verify(changed).break).toMatchObject({ reason: 'hash_mismatch', position: events[3].position });
    const missing = events.filter((_, i) => i !== 2);
    expect(verify(missing).break).toMatchObject({ reason: 'revision_gap', position: events[4].position });
    const forged = new Log();
    for (let i = 0; i < 3; i += 1) forged.append('trunk-x');
    forged.append('audit-checkpoint-a', 'AuditCheckpointRecorded', {
      through: '3:3',
      root: '0'.repeat(64),
      streams: 1,
      events: 3,
    });
    expect(verify(forged.events.map(auditEventOf)).break).toMatchObject({ reason: 'checkpoint_mismatch' });
  });

  it('seals secrets by the digest of their ciphertext and still verifies', () => {
    const log = new Log();
    const secret = { v: 1, alg: 'A256GCM', iv: 'aXY=', ct: 'c2VjcmV0', tag: 'dGFn' };
    log.append('trunk-s', 'TrunkCreated', { sip_password: secret });
    const [event] = log.events.map(auditEventOf);
    expect(JSON.stringify(event)).not.toContain('c2VjcmV0');
    expect(verify([event]).verified).toBe(true);
  });
});

describe('CSV export rows', () => {
  it('round-trip an event with quotes, commas and nested JSON', () => {
    const log = new Log();
    log.append('trunk-csv', 'TrunkUpdated', { changes: { name: 'A "quoted", name' } });
    const event = { record: 'event' as const, ...auditEventOf(log.events[0]) };
    expect(fromCsvRow(parseCsvRow(toCsvRow(event).trimEnd()))).toEqual(event);
  });
});
