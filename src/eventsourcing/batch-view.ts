import type { ReadModelStore, WriteOp } from '../infrastructure/read-model/read-model-store.port';
import type { Prefetcher, ProjectionView } from './projection';

/** Redis answers an MGET of this many keys in about as long as one GET; larger ones block it longer. */
const MGET_CHUNK = 1000;

type SetOp = Extract<WriteOp, { op: 'set' }>;

/**
 * The read model as one batch sees it while its writes are computed: the batch's own writes
 * first (not written yet), then what the store held before the batch, read once per key. Reading
 * a key once per batch is exact because the store changes only by this runner's atomic batch
 * write for the keys its projections read.
 */
export class BatchView implements ProjectionView, Prefetcher {
  /** The batch's last set (or null: del) per key; a set's value is read only when asked for. */
  private readonly pending = new Map<string, SetOp | null>();
  private readonly before = new Map<string, string | null>();

  constructor(private readonly store: ReadModelStore) {}

  async get(key: string): Promise<string | null> {
    const known = this.known(key);
    if (known !== undefined) return known;
    const value = await this.store.get(key);
    this.before.set(key, value);
    return value;
  }

  async load(keys: readonly string[]): Promise<(string | null)[]> {
    const missing = [...new Set(keys.filter((key) => !this.before.has(key)))];
    for (let i = 0; i < missing.length; i += MGET_CHUNK) {
      const chunk = missing.slice(i, i + MGET_CHUNK);
      const values = await this.store.mget(chunk);
      chunk.forEach((key, j) => this.before.set(key, values[j]));
    }
    return keys.map((key) => this.before.get(key)!);
  }

  known(key: string): string | null | undefined {
    const written = this.pending.get(key);
    if (written !== undefined) return written && written.value;
    return this.before.get(key);
  }

  written(key: string): WriteOp | null | undefined {
    return this.pending.get(key);
  }

  /** The batch's writes so far, as later events of the batch must see them. */
  record(write: WriteOp): void {
    if (write.op === 'set') this.pending.set(write.key, write);
    else if (write.op === 'del') this.pending.set(write.key, null);
  }
}

/**
 * The batch's ops with every set/del of a key but its last dropped (and every zadd/zrem of a
 * member but its last): the same end state in Redis, which applies a MULTI in order and whose
 * ops on different keys are independent. Keys written any other way (hset, hdel) keep every op.
 */
export function compactOps(ops: readonly WriteOp[]): WriteOp[] {
  const mixed = new Set<string>();
  for (const op of ops) if (op.op === 'hset' || op.op === 'hdel') mixed.add(op.key);
  const overwritten = new Set<string>();
  const members = new Map<string, Set<string>>();
  const kept: WriteOp[] = [];
  for (let i = ops.length - 1; i >= 0; i--) {
    const op = ops[i];
    if ((op.op === 'set' || op.op === 'del') && !mixed.has(op.key)) {
      if (overwritten.has(op.key)) continue;
      overwritten.add(op.key);
    } else if (op.op === 'zadd' || op.op === 'zrem') {
      const later = members.get(op.key) ?? members.set(op.key, new Set()).get(op.key)!;
      if (later.has(op.member)) continue;
      later.add(op.member);
    }
    kept.push(op);
  }
  return kept.reverse();
}
