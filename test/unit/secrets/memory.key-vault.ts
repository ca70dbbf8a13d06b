import {
  checkVaultArgs,
  DataKeyConflictError,
  type KeyVault,
} from '../../../src/infrastructure/secrets/key-vault.port';

/** A KeyVault in a Map, for unit tests; test/contract/key-vault.memory.spec.ts holds it to the contract. */
export class MemoryKeyVault implements KeyVault {
  readonly keys = new Map<string, string | 'destroyed'>();
  /** Calls of get(), to see when the SecretBox answered from its cache. */
  gets = 0;

  async put(ownerId: string, wrappedKey: string): Promise<void> {
    checkVaultArgs(ownerId, wrappedKey);
    const current = this.keys.get(ownerId);
    if (current === undefined) this.keys.set(ownerId, wrappedKey);
    else if (current !== wrappedKey)
      throw new DataKeyConflictError(ownerId, current === 'destroyed' ? 'destroyed' : 'exists');
  }

  async get(ownerId: string): Promise<string | 'destroyed' | null> {
    checkVaultArgs(ownerId);
    this.gets += 1;
    return this.keys.get(ownerId) ?? null;
  }

  async destroy(ownerId: string): Promise<void> {
    checkVaultArgs(ownerId);
    this.keys.set(ownerId, 'destroyed');
  }
}
