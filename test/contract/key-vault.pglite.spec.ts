import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import { PostgresEventStore } from '../../src/infrastructure/event-store/postgres/postgres.event-store';
import { createKeyVault } from '../../src/infrastructure/secrets/key-vault.factory';
import { keyVaultContract, type OpenedKeyVault } from './key-vault.contract';

const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-pglite-vault-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function open(): Promise<OpenedKeyVault & { store: PostgresEventStore }> {
  const store = await createEventStore({ dataDir });
  if (!(store instanceof PostgresEventStore)) throw new Error('expected the embedded PGlite store');
  return {
    store,
    vault: await createKeyVault(store),
    close: () => store.close(),
    storedKey: async (ownerId) => {
      const { rows } = await store.sql.query<{ wrapped_key: string | null }>(
        'SELECT wrapped_key FROM data_keys WHERE owner_id = $1',
        [ownerId],
      );
      return rows[0]?.wrapped_key ?? null;
    },
  };
}

keyVaultContract('pglite', open);

describe('PGlite key vault specifics', () => {
  it('keeps its table beside the events, in the store schema, with a tombstone per destroyed owner', async () => {
    const { store, vault, close } = await open();
    try {
      await vault.destroy('trunk_tombstone');
      const tables = await store.sql.query<{ table_schema: string; table_name: string }>(
        `SELECT table_schema, table_name FROM information_schema.tables WHERE table_name IN ('data_keys', 'events') ORDER BY 2`,
      );
      expect(tables.rows).toEqual([
        { table_schema: 'event_store', table_name: 'data_keys' },
        { table_schema: 'event_store', table_name: 'events' },
      ]);
      const tombstone = await store.sql.query<{ wrapped_key: string | null; destroyed: boolean }>(
        `SELECT wrapped_key, destroyed_at IS NOT NULL AS destroyed FROM data_keys WHERE owner_id = 'trunk_tombstone'`,
      );
      expect(tombstone.rows).toEqual([{ wrapped_key: null, destroyed: true }]);
    } finally {
      await close();
    }
  });
});
