import { CredentialCache } from '../../../src/access/credentials/credential-cache';
import type { KeyCredential } from '../../../src/api-keys/read/api-key.lookup';
import { hashApiKey } from '../../../src/shared/api-key';

const credential = (keyId: string, revoked = false): KeyCredential => ({
  keyId,
  accountId: 'acc_1',
  scopes: ['read'],
  environment: 'live',
  expiresAt: null,
  revoked,
});

describe('CredentialCache', () => {
  let now = 1_000_000;
  const cache = (ttlMs = 10_000, maxEntries = 100) => new CredentialCache({ ttlMs, maxEntries, now: () => now });

  it('keeps a credential for its TTL, then reads it as missing', () => {
    const c = cache();
    c.set('h1', credential('key_1'), c.ticket());
    expect(c.get('h1')).toEqual(credential('key_1'));
    now += 9_999;
    expect(c.get('h1')).toEqual(credential('key_1'));
    now += 1;
    expect(c.get('h1')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('forgets a revoked key at once', () => {
    const c = cache();
    c.set('h1', credential('key_1'), c.ticket());
    c.set('h2', credential('key_2'), c.ticket());
    c.forget('h1');
    expect(c.get('h1')).toBeUndefined();
    expect(c.get('h2')).toEqual(credential('key_2'));
  });

  it('does not keep what a lookup found if an invalidation came while it ran', () => {
    const c = cache();
    const ticket = c.ticket();
    // The lookup read the record before the revocation reached the read model...
    c.forget('h1');
    // ...and its answer arrives after the instance dropped the key: it must not come back.
    c.set('h1', credential('key_1'), ticket);
    expect(c.get('h1')).toBeUndefined();
    c.set('h1', credential('key_1', true), c.ticket());
    expect(c.get('h1')?.revoked).toBe(true);
  });

  it('empties on clear (the bus may have lost messages)', () => {
    const c = cache();
    const ticket = c.ticket();
    c.set('h1', credential('key_1'), ticket);
    c.clear();
    expect(c.get('h1')).toBeUndefined();
    c.set('h2', credential('key_2'), ticket);
    expect(c.get('h2')).toBeUndefined();
  });

  it('holds at most maxEntries, dropping the oldest', () => {
    const c = cache(10_000, 2);
    for (const n of [1, 2, 3]) c.set(`h${n}`, credential(`key_${n}`), c.ticket());
    expect(c.size).toBe(2);
    expect(c.get('h1')).toBeUndefined();
    expect(c.get('h3')).toEqual(credential('key_3'));
  });

  it('keeps nothing with a TTL of 0', () => {
    const c = cache(0);
    c.set('h1', credential('key_1'), c.ticket());
    expect(c.enabled).toBe(false);
    expect(c.get('h1')).toBeUndefined();
  });

  describe('hashes of presented keys', () => {
    const key = (n: number) => `sk_live_${String(n).padStart(32, '0')}`;

    it('hashes a key it does not remember, exactly as hashApiKey', () => {
      const c = cache();
      expect(c.hashOf(key(1))).toBe(hashApiKey(key(1)));
      expect(c.rememberedKeys).toBe(0);
    });

    it('remembers a key only beside its cached credential', () => {
      const c = cache();
      c.remember(key(1), hashApiKey(key(1)));
      expect(c.rememberedKeys).toBe(0);
      c.set(hashApiKey(key(1)), credential('key_1'), c.ticket());
      c.remember(key(1), hashApiKey(key(1)));
      expect(c.rememberedKeys).toBe(1);
      expect(c.hashOf(key(1))).toBe(hashApiKey(key(1)));
    });

    it('lets the key go with its credential: revocation, clear, TTL, eviction', () => {
      const c = cache(10_000, 2);
      const keep = (n: number) => {
        c.set(hashApiKey(key(n)), credential(`key_${n}`), c.ticket());
        c.remember(key(n), hashApiKey(key(n)));
      };
      keep(1);
      c.forget(hashApiKey(key(1)));
      expect(c.rememberedKeys).toBe(0);
      keep(2);
      c.clear();
      expect(c.rememberedKeys).toBe(0);
      keep(3);
      now += 10_000;
      expect(c.get(hashApiKey(key(3)))).toBeUndefined();
      expect(c.rememberedKeys).toBe(0);
      keep(4);
      keep(5);
      keep(6);
      expect([c.size, c.rememberedKeys]).toEqual([2, 2]);
      expect(c.hashOf(key(4))).toBe(hashApiKey(key(4)));
    });

    it('drops the key when its credential is replaced, until it is accepted again', () => {
      const c = cache();
      const hash = hashApiKey(key(1));
      c.set(hash, credential('key_1'), c.ticket());
      c.remember(key(1), hash);
      // A new lookup replaces the entry (e.g. after a TTL race): the key is not carried over.
      c.set(hash, credential('key_1', true), c.ticket());
      expect(c.rememberedKeys).toBe(0);
      expect(c.hashOf(key(1))).toBe(hash);
    });
  });
});
