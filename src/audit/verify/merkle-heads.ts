import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** The last event of one stream: what a checkpoint seals of it. hash null: written before the chain. */
export interface StreamHead {
  streamId: string;
  revision: number;
  hash: string | null;
}

const EMPTY = Buffer.alloc(32);
const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);
const ROOT = Buffer.from([2]);

const sha256 = (...parts: Buffer[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** SHA-256(0x00 ‖ JCS({stream_id, revision, hash})). */
export const leafOf = (head: StreamHead): Buffer =>
  sha256(
    LEAF,
    Buffer.from(canonicalize({ stream_id: head.streamId, revision: head.revision, hash: head.hash }) ?? '', 'utf8'),
  );

const depthOf = (n: number): number => (n <= 1 ? 0 : Math.ceil(Math.log2(n)));

/**
 * The Merkle tree over an account's stream heads, one leaf per stream in the order its first event
 * appears in the global log. The tree is perfect over the next power of two of the stream count,
 * empty leaves are 32 zero bytes, an inner node is SHA-256(0x01 ‖ left ‖ right), and the root is
 * SHA-256(0x02 ‖ count as 8 bytes big-endian ‖ top), in hex. Kept as a segment tree, so moving a
 * head costs log(streams) hashes, paid when a root is asked for (once per moved head, not per event).
 */
export class MerkleHeads {
  private readonly index = new Map<string, number>();
  private readonly heads: StreamHead[] = [];
  /** levels[0] are the leaves (capacity a power of two), the last level holds the top alone. */
  private levels: Buffer[][] = [[EMPTY]];
  /** Leaves whose head moved since the tree was last brought up to date (hashed on the next root). */
  private readonly stale = new Set<number>();

  get size(): number {
    return this.heads.length;
  }

  head(streamId: string): StreamHead | undefined {
    const i = this.index.get(streamId);
    return i === undefined ? undefined : this.heads[i];
  }

  /** Every head, in leaf order (a windowed export writes them in this order). */
  all(): readonly StreamHead[] {
    return this.heads;
  }

  set(head: StreamHead): void {
    let i = this.index.get(head.streamId);
    if (i === undefined) {
      i = this.heads.length;
      this.index.set(head.streamId, i);
      this.heads.push(head);
      if (this.heads.length > this.levels[0].length) this.grow();
    } else {
      this.heads[i] = head;
    }
    this.stale.add(i);
  }

  root(): string {
    this.refresh();
    return this.rootOf(this.heads.length);
  }

  /**
   * The root as it was before some later changes: `earlier` gives, per stream changed since, its
   * head back then (undefined: the stream did not exist yet, so it is one of the last leaves).
   */
  rootBefore(earlier: ReadonlyMap<string, StreamHead | undefined>): { root: string; streams: number } {
    this.refresh();
    let removed = 0;
    for (const [streamId, head] of earlier) {
      if (!head) removed += 1;
      this.setLeaf(this.index.get(streamId) as number, head ? leafOf(head) : EMPTY);
    }
    const streams = this.heads.length - removed;
    const root = this.rootOf(streams);
    for (const streamId of earlier.keys()) {
      const i = this.index.get(streamId) as number;
      this.setLeaf(i, leafOf(this.heads[i]));
    }
    return { root, streams };
  }

  /** The subtree over the first 2^depth(n) leaves is the tree of n leaves: the rest are empty. */
  private rootOf(n: number): string {
    const count = Buffer.alloc(8);
    count.writeBigUInt64BE(BigInt(n));
    return sha256(ROOT, count, this.levels[depthOf(n)][0]).toString('hex');
  }

  /** Hashes the moved heads once, however often each moved: a head is hashed per root, not per event. */
  private refresh(): void {
    for (const i of this.stale) this.setLeaf(i, leafOf(this.heads[i]));
    this.stale.clear();
  }

  private setLeaf(i: number, leaf: Buffer): void {
    this.levels[0][i] = leaf;
    for (let level = 1; level < this.levels.length; level += 1) {
      i >>= 1;
      this.levels[level][i] = sha256(NODE, this.levels[level - 1][2 * i], this.levels[level - 1][2 * i + 1]);
    }
  }

  private grow(): void {
    const capacity = this.levels[0].length * 2;
    const leaves = Array.from({ length: capacity }, (_, i) => this.levels[0][i] ?? EMPTY);
    const levels = [leaves];
    while (levels[levels.length - 1].length > 1) {
      const below = levels[levels.length - 1];
      levels.push(Array.from({ length: below.length / 2 }, (_, i) => sha256(NODE, below[2 * i], below[2 * i + 1])));
    }
    this.levels = levels;
  }
}
