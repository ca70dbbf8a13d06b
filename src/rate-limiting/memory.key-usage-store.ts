import type { KeyUsage, KeyUsageStore } from './rate-limiter.port';

/** Same semantics as the Redis store: last use only moves forward, unknown keys read as zeros. */
export class MemoryKeyUsageStore implements KeyUsageStore {
  private readonly usage = new Map<string, { requests: number; errors: number; lastUsedAtMs: number }>();

  async record(keyId: string, at: Date, isError: boolean): Promise<void> {
    const atMs = at.getTime();
    if (Number.isNaN(atMs)) throw new RangeError('record() needs a valid date');
    const entry = this.usage.get(keyId) ?? { requests: 0, errors: 0, lastUsedAtMs: atMs };
    entry.requests += 1;
    if (isError) entry.errors += 1;
    entry.lastUsedAtMs = Math.max(entry.lastUsedAtMs, atMs);
    this.usage.set(keyId, entry);
  }

  async get(keyIds: string[]): Promise<Map<string, KeyUsage>> {
    const result = new Map<string, KeyUsage>();
    for (const id of keyIds) {
      const entry = this.usage.get(id);
      result.set(id, {
        lastUsedAt: entry ? new Date(entry.lastUsedAtMs) : null,
        requestCount: entry?.requests ?? 0,
        errorCount: entry?.errors ?? 0,
      });
    }
    return result;
  }

  async close(): Promise<void> {}
}
