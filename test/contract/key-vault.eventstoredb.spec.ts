import { tmpdir } from 'node:os';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import { createKeyVault } from '../../src/infrastructure/secrets/key-vault.factory';
import { KEY_VAULT_CASE, keyVaultContract } from './key-vault.contract';

const url = process.env.EVENTSTORE_URL;

if (url) {
  keyVaultContract(
    'eventstoredb',
    async () => {
      const store = await createEventStore({ url, dataDir: tmpdir() });
      return { vault: await createKeyVault(store), close: () => store.close() };
    },
    {
      skip: {
        [KEY_VAULT_CASE.physicallyGone]:
          'a tombstoned stream is unreadable at once, but its events leave the disk only at the next scavenge, which the operator schedules',
      },
    },
  );
} else {
  describe('KeyVault contract (eventstoredb)', () => {
    it('is skipped: EVENTSTORE_URL not set', () => {
      console.warn(
        'skipped: EVENTSTORE_URL not set — the EventStoreDB key vault contract needs a live server, e.g. EVENTSTORE_URL=esdb://127.0.0.1:2113?tls=false',
      );
    });
  });
}
