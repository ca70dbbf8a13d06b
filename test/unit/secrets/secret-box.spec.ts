import { SecretUnavailableError } from '../../../src/infrastructure/secrets/secret-box';
import type { EncryptedSecret } from '../../../src/shared/encrypted-secret';
import { isEncryptedSecret } from '../../../src/shared/encrypted-secret';
import { PASSWORD, setup, tampered, trunkWithSecret } from './secret-box.fixtures';

describe('SecretBox', () => {
  it('decrypts what it encrypted', async () => {
    const { box } = setup();
    const secret = await trunkWithSecret(box);
    expect(isEncryptedSecret(secret)).toBe(true);
    expect(secret).toMatchObject({ v: 1, alg: 'A256GCM' });
    expect(Buffer.from(secret.iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(secret.tag, 'base64')).toHaveLength(16);
    expect(await box.decrypt('trunk_a', 'sip_password', secret)).toBe(PASSWORD);
  });

  it('round-trips empty and non-ASCII plaintexts', async () => {
    const { box } = setup();
    await box.createDataKey('trunk_a');
    for (const plaintext of ['', 'pässwörd-☎️-密码']) {
      expect(await box.decrypt('trunk_a', 'f', await box.encrypt('trunk_a', 'f', plaintext))).toBe(plaintext);
    }
  });

  it('decrypts in another instance with the same master key and vault (a restart)', async () => {
    const first = setup();
    const secret = await trunkWithSecret(first.box);
    const second = setup({ masterKey: first.masterKey, vault: first.vault });
    expect(await second.box.decrypt('trunk_a', 'sip_password', secret)).toBe(PASSWORD);
  });

  it('never puts the plaintext into the EncryptedSecret', async () => {
    const { box } = setup();
    const json = JSON.stringify(await trunkWithSecret(box));
    expect(json).not.toContain(PASSWORD);
    expect(json).not.toContain(Buffer.from(PASSWORD).toString('base64'));
  });

  it('produces different ciphertexts for the same plaintext', async () => {
    const { box } = setup();
    const a = await trunkWithSecret(box);
    const b = await box.encrypt('trunk_a', 'sip_password', PASSWORD);
    expect(a.iv).not.toBe(b.iv);
    expect(a.ct).not.toBe(b.ct);
  });

  it('refuses a ciphertext moved to another trunk', async () => {
    const { box } = setup();
    const secret = await trunkWithSecret(box, 'trunk_a');
    await box.createDataKey('trunk_b');
    await expect(box.decrypt('trunk_b', 'sip_password', secret)).rejects.toThrow(SecretUnavailableError);
  });

  it('refuses a ciphertext moved to another field of the same trunk', async () => {
    const { box } = setup();
    const secret = await trunkWithSecret(box, 'trunk_a', 'sip_password');
    await expect(box.decrypt('trunk_a', 'openai_api_key', secret)).rejects.toThrow(SecretUnavailableError);
  });

  it('refuses a wrapped data key copied to another trunk in the vault', async () => {
    const { box, vault } = setup();
    const secret = await trunkWithSecret(box, 'trunk_a');
    vault.keys.set('trunk_b', vault.keys.get('trunk_a') as string);
    await expect(box.decrypt('trunk_b', 'sip_password', secret)).rejects.toThrow(SecretUnavailableError);
  });

  it.each(['ct', 'tag', 'iv'] as const)('refuses a secret whose %s was altered', async (part) => {
    const { box } = setup();
    const secret = await trunkWithSecret(box);
    await expect(box.decrypt('trunk_a', 'sip_password', { ...secret, [part]: tampered(secret[part]) })).rejects.toThrow(
      SecretUnavailableError,
    );
  });

  it('refuses a truncated tag and an unknown format version', async () => {
    const { box } = setup();
    const secret = await trunkWithSecret(box);
    const shortTag = Buffer.from(secret.tag, 'base64').subarray(0, 8).toString('base64');
    await expect(box.decrypt('trunk_a', 'sip_password', { ...secret, tag: shortTag })).rejects.toThrow(
      SecretUnavailableError,
    );
    await expect(
      box.decrypt('trunk_a', 'sip_password', { ...secret, v: 2 } as unknown as EncryptedSecret),
    ).rejects.toThrow(SecretUnavailableError);
  });

  it('cannot unwrap data keys with another master key', async () => {
    const first = setup();
    const secret = await trunkWithSecret(first.box);
    const other = setup({ vault: first.vault });
    const error = await other.box.decrypt('trunk_a', 'sip_password', secret).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretUnavailableError);
    expect((error as SecretUnavailableError).reason).toBe('data key cannot be unwrapped');
  });

  it('stores the data key wrapped as v1.<iv>.<ct>.<tag> in base64url', async () => {
    const { box, vault } = setup();
    await box.createDataKey('trunk_a');
    const wrapped = vault.keys.get('trunk_a') as string;
    expect(wrapped).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}$/);
  });

  it('answers SecretUnavailableError for an owner without a data key', async () => {
    const { box } = setup();
    await expect(box.encrypt('trunk_none', 'sip_password', PASSWORD)).rejects.toThrow(SecretUnavailableError);
  });

  it('keeps the first data key when createDataKey runs again (a retried command)', async () => {
    const { box, vault } = setup();
    const secret = await trunkWithSecret(box);
    const wrapped = vault.keys.get('trunk_a');
    await box.createDataKey('trunk_a');
    expect(vault.keys.get('trunk_a')).toBe(wrapped);
    expect(await box.decrypt('trunk_a', 'sip_password', secret)).toBe(PASSWORD);
  });

  it('agrees on one data key when two instances create it at once', async () => {
    const first = setup();
    const second = setup({ masterKey: first.masterKey, vault: first.vault });
    await Promise.all([first.box.createDataKey('trunk_a'), second.box.createDataKey('trunk_a')]);
    const secret = await first.box.encrypt('trunk_a', 'sip_password', PASSWORD);
    expect(await second.box.decrypt('trunk_a', 'sip_password', secret)).toBe(PASSWORD);
  });
});
