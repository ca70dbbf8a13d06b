import { createHash, randomUUID } from 'node:crypto';
import type { ExpectedVersion, NewEvent } from '../../src/infrastructure/event-store/event-store.port';
import { accountDecider, accountStream } from '../../src/accounts/domain/account.decider';
import { apiKeyDecider, apiKeyStream } from '../../src/api-keys/domain/api-key.decider';

/** One append of the seeded history: what the app's command handlers would have appended. */
export interface Append {
  stream: string;
  events: NewEvent[];
  expected: ExpectedVersion;
}

/** The simulated clock of the history: every event a second after the one before. */
export class HistoryClock {
  private ms = Date.parse('2025-01-01T00:00:00Z');
  next(): Date {
    this.ms += 1000;
    return new Date(this.ms);
  }
}

/** A small deterministic PRNG (mulberry32): the same --events give the same mix of events. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const toNew = (events: { type: string; data: unknown }[], actor: string): NewEvent[] =>
  events.map((e) => ({
    id: randomUUID(),
    type: e.type,
    data: e.data,
    metadata: { actor, correlation_id: randomUUID() },
  }));

/** An account with five API keys, one of them revoked (as after a key rotation). */
export function accountHistory(accountId: string, clock: HistoryClock): Append[] {
  const created = accountDecider.decide(
    { type: 'CreateAccount', data: { accountId, name: `Tenant ${accountId}`, at: clock.next() } },
    accountDecider.initialState(),
  );
  const appends: Append[] = [
    { stream: accountStream(accountId), events: toNew(created, 'system'), expected: 'no_stream' },
  ];
  for (let k = 0; k < 5; k++) {
    const keyId = `key_${accountId}_${k}`;
    const issue = {
      type: 'IssueApiKey' as const,
      data: {
        keyId,
        accountId,
        name: `key ${k}`,
        scopes: k === 0 ? (['full'] as const) : (['read', 'ingest'] as const),
        environment: 'live' as const,
        keyHash: createHash('sha256').update(`${keyId}-secret`).digest('hex'),
        keyHint: keyId.slice(-4),
        expiresAt: null,
        at: clock.next(),
      },
    };
    const issued = apiKeyDecider.decide(
      { ...issue, data: { ...issue.data, scopes: [...issue.data.scopes] } },
      apiKeyDecider.initialState(),
    );
    const events =
      k === 4
        ? [
            ...issued,
            ...apiKeyDecider.decide(
              { type: 'RevokeApiKey', data: { keyId, at: clock.next() } },
              apiKeyDecider.evolve(apiKeyDecider.initialState(), issued[0]),
            ),
          ]
        : issued;
    appends.push({ stream: apiKeyStream(keyId), events: toNew(events, 'system'), expected: 'no_stream' });
  }
  return appends;
}
