import { MemoryKeyVault } from '../unit/secrets/memory.key-vault';
import { keyVaultContract } from './key-vault.contract';

/** The unit tests' double must behave like the real vaults, or the SecretBox tests prove little. */
const vault = new MemoryKeyVault(); // one instance: a reopen sees the same "storage"

keyVaultContract('memory', async () => ({
  vault,
  close: async () => undefined,
  storedKey: async (ownerId) => {
    const stored = vault.keys.get(ownerId);
    return stored === undefined || stored === 'destroyed' ? null : stored;
  },
}));
