import { randomUUID } from 'node:crypto';
import { DataKeyConflictError, type KeyVault } from '../../src/infrastructure/secrets/key-vault.port';

export interface OpenedKeyVault {
  vault: KeyVault;
  /** Closes what open() opened (the event store the vault lives in). */
  close(): Promise<void>;
  /** What the vault's storage physically holds for the owner: the wrapped key, or null when none. */
  storedKey?(ownerId: string): Promise<string | null>;
}

export interface KeyVaultContractOptions {
  /** Case name → written reason; the case is still registered and prints its reason. */
  skip?: Partial<Record<KeyVaultCase, string>>;
}

export const KEY_VAULT_CASE = {
  physicallyGone: 'leaves no copy of the wrapped key in its storage after destroy',
} as const;
export type KeyVaultCase = (typeof KEY_VAULT_CASE)[keyof typeof KEY_VAULT_CASE];

const owner = (): string => `trunk_${randomUUID()}`;
const wrapped = (): string => `v1.${randomUUID()}.${randomUUID()}.${randomUUID()}`;

async function conflictOf(promise: Promise<unknown>): Promise<DataKeyConflictError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataKeyConflictError);
  return error as DataKeyConflictError;
}

/**
 * The one conformance suite every KeyVault adapter runs. `open()` opens a new instance over the
 * same underlying storage; the suite closes what it opens. Every case uses owners of its own.
 */
export function keyVaultContract(
  adapterName: string,
  open: () => Promise<OpenedKeyVault>,
  options: KeyVaultContractOptions = {},
): void {
  describe(`KeyVault contract (${adapterName})`, () => {
    let shared: OpenedKeyVault | undefined;
    const vault = (): KeyVault => {
      if (!shared) throw new Error('the shared vault is not open');
      return shared.vault;
    };

    beforeAll(async () => {
      shared = await open();
    });
    afterAll(async () => {
      await shared?.close();
    });

    it('answers null for an owner that never had a key', async () => {
      expect(await vault().get(owner())).toBeNull();
    });

    it('returns the wrapped key that was put', async () => {
      const [id, key] = [owner(), wrapped()];
      await vault().put(id, key);
      expect(await vault().get(id)).toBe(key);
    });

    it('accepts the same key again (a retried put)', async () => {
      const [id, key] = [owner(), wrapped()];
      await vault().put(id, key);
      await vault().put(id, key);
      expect(await vault().get(id)).toBe(key);
    });

    it('refuses to overwrite a key with a different one, keeping the first, without echoing either', async () => {
      const [id, first, second] = [owner(), wrapped(), wrapped()];
      await vault().put(id, first);
      const error = await conflictOf(vault().put(id, second));
      expect(error.reason).toBe('exists');
      expect(error.message).not.toContain(first);
      expect(error.message).not.toContain(second);
      expect(await vault().get(id)).toBe(first);
    });

    it('answers destroyed after destroy', async () => {
      const id = owner();
      await vault().put(id, wrapped());
      await vault().destroy(id);
      expect(await vault().get(id)).toBe('destroyed');
    });

    it('destroys idempotently', async () => {
      const id = owner();
      await vault().put(id, wrapped());
      await vault().destroy(id);
      await vault().destroy(id);
      expect(await vault().get(id)).toBe('destroyed');
    });

    it('refuses to put a key for a destroyed owner, even the key it had', async () => {
      const [id, key] = [owner(), wrapped()];
      await vault().put(id, key);
      await vault().destroy(id);
      expect((await conflictOf(vault().put(id, key))).reason).toBe('destroyed');
      expect((await conflictOf(vault().put(id, wrapped()))).reason).toBe('destroyed');
      expect(await vault().get(id)).toBe('destroyed');
    });

    it('destroys an owner that never had a key, so none can be put later', async () => {
      const id = owner();
      await vault().destroy(id);
      expect(await vault().get(id)).toBe('destroyed');
      expect((await conflictOf(vault().put(id, wrapped()))).reason).toBe('destroyed');
    });

    it('keeps owners apart: destroying one leaves the others', async () => {
      const [a, b, keyB] = [owner(), owner(), wrapped()];
      await vault().put(a, wrapped());
      await vault().put(b, keyB);
      await vault().destroy(a);
      expect(await vault().get(b)).toBe(keyB);
    });

    it('answers each of many concurrent gets for its own owner, the same owner asked twice alike', async () => {
      const [kept, keptKey, destroyed, never] = [owner(), wrapped(), owner(), owner()];
      await vault().put(kept, keptKey);
      await vault().put(destroyed, wrapped());
      await vault().destroy(destroyed);
      const others = Array.from({ length: 1_010 }, () => owner());
      const asked = [kept, destroyed, never, kept, ...others, destroyed];
      const answers = await Promise.all(asked.map((id) => vault().get(id)));
      expect(answers.slice(0, 4)).toEqual([keptKey, 'destroyed', null, keptKey]);
      expect(answers.slice(4, -1).every((answer) => answer === null)).toBe(true);
      expect(answers.at(-1)).toBe('destroyed');
    });

    it('lets exactly one of several concurrent puts of different keys win', async () => {
      const id = owner();
      const keys = [wrapped(), wrapped(), wrapped(), wrapped()];
      const outcomes = await Promise.allSettled(keys.map((key) => vault().put(id, key)));
      const winners = keys.filter((_, i) => outcomes[i].status === 'fulfilled');
      expect(winners).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(DataKeyConflictError);
      }
      expect(await vault().get(id)).toBe(winners[0]);
    });

    it('keeps keys and destructions across a reopen', async () => {
      const [kept, key, destroyed] = [owner(), wrapped(), owner()];
      await vault().put(kept, key);
      await vault().put(destroyed, wrapped());
      await vault().destroy(destroyed);
      await shared?.close();
      shared = undefined; // if open() fails, afterAll must not close it twice
      shared = await open();
      expect(await vault().get(kept)).toBe(key);
      expect(await vault().get(destroyed)).toBe('destroyed');
    });

    const physicallyGoneReason = options.skip?.[KEY_VAULT_CASE.physicallyGone];
    if (physicallyGoneReason === undefined) {
      it(KEY_VAULT_CASE.physicallyGone, async () => {
        const [id, key] = [owner(), wrapped()];
        await vault().put(id, key);
        const storedKey = shared?.storedKey;
        if (!storedKey) throw new Error('storedKey() is required unless this case is skipped');
        expect(await storedKey(id)).toBe(key);
        await vault().destroy(id);
        expect(await storedKey(id)).toBeNull();
      });
    } else {
      it(`${KEY_VAULT_CASE.physicallyGone} [skipped: ${physicallyGoneReason}]`, () => {
        console.warn(
          `[key-vault contract: ${adapterName}] skipped "${KEY_VAULT_CASE.physicallyGone}": ${physicallyGoneReason}`,
        );
      });
    }

    it('rejects an empty owner id', async () => {
      await expect(vault().get('')).rejects.toThrow(/ownerId/);
      await expect(vault().put('', wrapped())).rejects.toThrow(/ownerId/);
      await expect(vault().destroy('')).rejects.toThrow(/ownerId/);
    });
  });
}
