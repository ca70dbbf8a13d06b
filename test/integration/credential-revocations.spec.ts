import pino from 'pino';
import { RedisBus } from '../../src/infrastructure/cluster/redis.bus';
import { CredentialCache } from '../../src/access/credentials/credential-cache';
import { CredentialRevocations } from '../../src/access/credentials/credential-revocations';
import type { KeyCredential } from '../../src/api-keys/read/api-key.lookup';
import { RedisTestContext, testRedisUrl } from '../support/redis';

const credential: KeyCredential = {
  keyId: 'key_1',
  accountId: 'acc_1',
  scopes: ['full'],
  environment: 'live',
  expiresAt: null,
  revoked: false,
};

/** Three instances' caches over real Redis buses: a revocation through one empties all three before it resolves. */
describe('credential revocations across instances (Redis bus)', () => {
  const redis = new RedisTestContext('credential-revocations');
  const buses: RedisBus[] = [];
  afterAll(async () => {
    await Promise.all(buses.map((bus) => bus.close()));
    await redis.teardown();
  });

  it('drops the key from every instance before revoked() resolves', async () => {
    const namespace = redis.namespace();
    const instances = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const bus = await RedisBus.connect(testRedisUrl(), await redis.client(`publisher-${i}`));
        buses.push(bus);
        const cache = new CredentialCache({ ttlMs: 60_000, maxEntries: 10 });
        const revocations = await CredentialRevocations.connect(cache, bus, namespace, pino({ level: 'silent' }));
        return { cache, revocations };
      }),
    );
    for (const { cache } of instances) {
      cache.set('hash-a', credential, cache.ticket());
      cache.set('hash-b', { ...credential, keyId: 'key_2' }, cache.ticket());
    }
    await instances[1].revocations.revoked('hash-a');
    // No waiting: the acknowledgements came from every listening instance.
    expect(instances.map(({ cache }) => cache.get('hash-a'))).toEqual([undefined, undefined, undefined]);
    expect(instances.map(({ cache }) => cache.get('hash-b')?.keyId)).toEqual(['key_2', 'key_2', 'key_2']);
  });
});
