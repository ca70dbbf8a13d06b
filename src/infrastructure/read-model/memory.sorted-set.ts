/**
 * A sorted set ordered like Redis's: by score, ties by member in byte order. Members are kept
 * in an array sorted by (score, member) and found by binary search; the memory adapter serves
 * development and tests, not large sets.
 */
export class MemorySortedSet {
  private readonly scores = new Map<string, number>();
  private readonly entries: { score: number; member: string }[] = [];

  get size(): number {
    return this.entries.length;
  }

  add(member: string, score: number): void {
    if (Number.isNaN(score)) throw new Error('ERR value is not a valid float');
    const current = this.scores.get(member);
    if (current === score) return;
    if (current !== undefined) this.entries.splice(this.indexOf(current, member), 1);
    this.scores.set(member, score);
    this.entries.splice(this.indexOf(score, member), 0, { score, member });
  }

  remove(member: string): void {
    const score = this.scores.get(member);
    if (score === undefined) return;
    this.entries.splice(this.indexOf(score, member), 1);
    this.scores.delete(member);
  }

  /** Inclusive ranks, ascending; or counted from the highest entry when reversed. */
  range(start: number, stop: number, reversed: boolean): string[] {
    const n = this.entries.length;
    const picked = reversed
      ? this.entries.slice(Math.max(0, n - 1 - stop), Math.max(0, n - start)).reverse()
      : this.entries.slice(start, stop + 1);
    return picked.map((entry) => entry.member);
  }

  /** The rank (in the given order) of the first entry after (score, member), present or not. */
  rankAfter(score: number, member: string, reversed: boolean): number {
    const at = this.indexOf(score, member);
    const present = this.entries[at]?.score === score && this.entries[at]?.member === member;
    return reversed ? this.entries.length - at : present ? at + 1 : at;
  }

  /** Position of (score, member) if present, else where it would be inserted. */
  private indexOf(score: number, member: string): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const e = this.entries[mid];
      const before = e.score < score || (e.score === score && compareBytes(e.member, member) < 0);
      if (before) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * Redis compares members as UTF-8 bytes, i.e. by code point; JavaScript's `<` compares UTF-16
 * units, which disagrees once a surrogate pair meets a character in U+E000..U+FFFF.
 */
function compareBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca - cb;
    if (ca > 0xffff) i++;
  }
  return a.length - b.length;
}
