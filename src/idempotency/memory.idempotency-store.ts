import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { ClaimOutcome, IdempotencyStore, StoredResponse } from './idempotency-store.port';

interface Entry {
  fingerprint: string;
  token: string;
  response: StoredResponse | null;
  expiresAt: number;
}

const SWEEP_INTERVAL_MS = 60_000;

/** Constant-time, as every token comparison in src is (test/e2e/security-api-keys.e2e.spec.ts). */
function isSameClaim(held: string, presented: string): boolean {
  const [a, b] = [Buffer.from(held), Buffer.from(presented)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** One process's idempotency keys (the embedded setup): a map with expiry, swept once a minute at most. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  private sweptAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async claim(scope: string, key: string, fingerprint: string, claimTtlMs: number): Promise<ClaimOutcome> {
    this.sweep();
    const id = `${scope}\n${key}`;
    const found = this.entries.get(id);
    const entry = found && found.expiresAt > this.now() ? found : undefined;
    if (entry?.response) return { kind: 'completed', fingerprint: entry.fingerprint, response: entry.response };
    if (entry) return { kind: 'in_progress', fingerprint: entry.fingerprint };
    const token = randomUUID();
    this.entries.set(id, { fingerprint, token, response: null, expiresAt: this.now() + claimTtlMs });
    return { kind: 'claimed', token };
  }

  async complete(scope: string, key: string, token: string, response: StoredResponse, ttlMs: number): Promise<void> {
    const entry = this.held(scope, key, token);
    if (entry) Object.assign(entry, { response, expiresAt: this.now() + ttlMs });
  }

  async release(scope: string, key: string, token: string): Promise<void> {
    if (this.held(scope, key, token)) this.entries.delete(`${scope}\n${key}`);
  }

  get size(): number {
    return this.entries.size;
  }

  private held(scope: string, key: string, token: string): Entry | undefined {
    const entry = this.entries.get(`${scope}\n${key}`);
    const ours = entry !== undefined && entry.response === null && entry.expiresAt > this.now();
    return ours && isSameClaim(entry.token, token) ? entry : undefined;
  }

  private sweep(): void {
    const now = this.now();
    if (now - this.sweptAt < SWEEP_INTERVAL_MS) return;
    this.sweptAt = now;
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
  }
}
