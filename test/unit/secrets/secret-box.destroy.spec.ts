import { randomBytes } from 'node:crypto';
import { AesGcmSecretBox, SecretDestroyedError } from '../../../src/infrastructure/secrets/secret-box';
import type { EncryptedSecret } from '../../../src/shared/encrypted-secret';
import { MemoryKeyVault } from './memory.key-vault';
import { PASSWORD, setup, tampered, trunkWithSecret } from './secret-box.fixtures';

describe('SecretBox destruction (crypto-shredding)', () => {
  it('answers SecretDestroyedError after destroy, even with the key cached', async () => {
    const { box, vault } = setup();
    const secret = await trunkWithSecret(box);
    expect(await box.decrypt('trunk_a', 'sip_password', secret)).toBe(PASSWORD); // cached now
    await box.destroy('trunk_a');
    expect(vault.keys.get('trunk_a')).toBe('destroyed');
    await expect(box.decrypt('trunk_a', 'sip_password', secret)).rejects.toThrow(SecretDestroyedError);
    await expect(box.encrypt('trunk_a', 'sip_password', PASSWORD)).rejects.toThrow(SecretDestroyedError);
  });

  it('answers SecretDestroyedError in a fresh instance, and never gives the owner a new key', async () => {
    const first = setup();
    const secret = await trunkWithSecret(first.box);
    await first.box.destroy('trunk_a');
    const second = setup({ masterKey: first.masterKey, vault: first.vault });
    await expect(second.box.decrypt('trunk_a', 'sip_password', secret)).rejects.toThrow(SecretDestroyedError);
    await expect(second.box.createDataKey('trunk_a')).rejects.toThrow(SecretDestroyedError);
  });

  it('destroys idempotently, also an owner that never had a key', async () => {
    const { box } = setup();
    await trunkWithSecret(box);
    await box.destroy('trunk_a');
    await box.destroy('trunk_a');
    await box.destroy('trunk_never');
    await expect(box.createDataKey('trunk_never')).rejects.toThrow(SecretDestroyedError);
  });

  it('stops using a key destroyed by another instance once the cache entry expires (60 s by default)', async () => {
    const { box, vault, clock } = setup({ ttlMs: 60_000 });
    const secret = await trunkWithSecret(box);
    await vault.destroy('trunk_a'); // another instance's destroy(): this cache does not hear of it
    expect(await box.decrypt('trunk_a', 'sip_password', secret)).toBe(PASSWORD);
    clock.now += 60_000;
    await expect(box.decrypt('trunk_a', 'sip_password', secret)).rejects.toThrow(SecretDestroyedError);
  });

  it('does not cache a key whose vault read was overtaken by destroy', async () => {
    const { box, vault, masterKey } = setup();
    const secret = await trunkWithSecret(box);
    const cold = setup({ masterKey, vault }).box;
    const realGet = vault.get.bind(vault);
    let releaseRead!: () => void;
    const readHeld = new Promise<void>((resolve) => (releaseRead = resolve));
    vault.get = async (ownerId) => {
      const answer = await realGet(ownerId); // read before the destroy...
      await readHeld; // ...answered after it
      return answer;
    };
    const inFlight = cold.decrypt('trunk_a', 'sip_password', secret);
    await cold.destroy('trunk_a');
    releaseRead();
    expect(await inFlight).toBe(PASSWORD); // it started before the destroy
    vault.get = realGet;
    await expect(cold.decrypt('trunk_a', 'sip_password', secret)).rejects.toThrow(SecretDestroyedError);
  });
});

describe('SecretBox cache', () => {
  it('answers repeated decrypts from memory, and asks the vault again after the TTL', async () => {
    const { box, vault, clock } = setup({ ttlMs: 1000 });
    const secret = await trunkWithSecret(box);
    const before = vault.gets;
    for (let i = 0; i < 5; i++) await box.decrypt('trunk_a', 'sip_password', secret);
    expect(vault.gets).toBe(before);
    clock.now += 1000;
    await box.decrypt('trunk_a', 'sip_password', secret);
    expect(vault.gets).toBe(before + 1);
  });

  it('holds a bounded number of keys, evicting the least recently used', async () => {
    const vault = new MemoryKeyVault();
    const box = new AesGcmSecretBox(randomBytes(32), vault, { cacheEntries: 2 });
    const secrets: Record<string, EncryptedSecret> = {};
    for (const id of ['t1', 't2', 't3']) secrets[id] = await trunkWithSecret(box, id);
    const reads = async (id: string): Promise<number> => {
      const before = vault.gets;
      await box.decrypt(id, 'sip_password', secrets[id]);
      return vault.gets - before;
    };
    // Cached now: t2, t3 (t1 was evicted when t3 arrived).
    expect(await reads('t3')).toBe(0);
    expect(await reads('t2')).toBe(0); // t2 is now the most recently used
    expect(await reads('t1')).toBe(1); // read again, evicting t3 rather than t2
    expect(await reads('t2')).toBe(0);
    expect(await reads('t3')).toBe(1);
  });

  it('rejects a master key that is not 32 bytes, without echoing it', () => {
    const key = randomBytes(16);
    expect(() => new AesGcmSecretBox(key, new MemoryKeyVault())).toThrow(/MASTER_KEY/);
  });

  it('keeps secrets and keys out of error messages', async () => {
    const { box, vault, masterKey } = setup();
    const secret = await trunkWithSecret(box);
    const errors = await Promise.all([
      setup({ vault })
        .box.decrypt('trunk_a', 'sip_password', secret)
        .catch((e: Error) => e),
      box.decrypt('trunk_a', 'sip_password', { ...secret, ct: tampered(secret.ct) }).catch((e: Error) => e),
    ]);
    for (const error of errors) {
      const text = `${(error as Error).message} ${JSON.stringify(error)}`;
      for (const forbidden of [
        PASSWORD,
        masterKey.toString('base64'),
        vault.keys.get('trunk_a') as string,
        secret.ct,
      ]) {
        expect(text).not.toContain(forbidden);
      }
    }
  });
});
