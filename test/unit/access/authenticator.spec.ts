import { ApiKeyLookup } from '../../../src/api-keys/read/api-key.lookup';
import { Authenticator } from '../../../src/access/authenticator';
import { StoreCredentialGate } from '../../../src/access/credentials/store.credential-gate';
import { UNCACHED_KEY_HASHES } from '../../../src/access/credentials/key-hashes';
import type { ReadModelStatus } from '../../../src/eventsourcing/read-model-status.port';
import { MemoryReadModelStore } from '../../../src/infrastructure/read-model/memory.read-model-store';
import { MemoryRateLimiter } from '../../../src/rate-limiting/memory.rate-limiter';

const LIMIT = 3;
const UNKNOWN_KEY = `sk_live_${'B'.repeat(32)}`;

/** The read models' status as the authenticator asks it: restoring or not, nothing else read. */
function status(restoring: boolean): ReadModelStatus {
  return {
    restoring: async () => restoring,
    status: async () => ({ name: 'read-models', checkpoint: null, lagMs: 0, caughtUp: !restoring }),
  };
}

function authenticator(restoring: boolean): Authenticator {
  const store = new MemoryReadModelStore();
  const lookup = new ApiKeyLookup(store);
  const limits = { perMinute: LIMIT, gatewayPerMinute: LIMIT, gatewayUnknownPerMinute: LIMIT };
  const gate = new StoreCredentialGate(new MemoryRateLimiter(), lookup, limits, store);
  return new Authenticator({ adminApiKey: null, appEnv: 'live' }, gate, status(restoring), lookup, UNCACHED_KEY_HASHES);
}

describe('Authenticator: a key the read models do not hold', () => {
  it('given the read models restoring, answers 503 service_unavailable with the decision of the counted request', async () => {
    const auth = authenticator(true);
    const answers = [];
    for (let i = 0; i <= LIMIT; i++)
      answers.push(await auth.authenticate(`Bearer ${UNKNOWN_KEY}`, new Date(), 'ip:192.0.2.1'));
    expect(answers.map((a) => [a.principal, a.error?.code, a.decision.allowed, a.decision.remaining])).toEqual([
      [null, 'service_unavailable', true, 2],
      [null, 'service_unavailable', true, 1],
      [null, 'service_unavailable', true, 0],
      [null, 'service_unavailable', false, 0],
    ]);
    expect(answers[0].error?.details).toEqual(expect.objectContaining({ retryAfterSeconds: 1 }));
  });

  it('given the read models complete, answers 401 unauthorized, counted against the client bucket', async () => {
    const auth = authenticator(false);
    const answer = await auth.authenticate(`Bearer ${UNKNOWN_KEY}`, new Date(), 'ip:192.0.2.1');
    expect([answer.principal, answer.error?.code, answer.decision.remaining]).toEqual([
      null,
      'unauthorized',
      LIMIT - 1,
    ]);
  });
});
