import { tmpdir } from 'node:os';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import { PostgresEventStore } from '../../src/infrastructure/event-store/postgres/postgres.event-store';
import { createKeyVault } from '../../src/infrastructure/secrets/key-vault.factory';
import { connectToSchema, useIsolatedSchema } from '../support/postgres';
import { keyVaultContract, type OpenedKeyVault } from './key-vault.contract';

const { url, schema } = useIsolatedSchema('vault_contract');

async function openStore(): Promise<PostgresEventStore> {
  const store = await createEventStore({ url, schema, dataDir: tmpdir(), poolSize: 4 });
  if (!(store instanceof PostgresEventStore)) throw new Error('expected the PostgreSQL store');
  return store;
}

/** Reads through a connection of its own, as an operator (or an attacker with a dump) would. */
async function storedKey(ownerId: string): Promise<string | null> {
  const client = await connectToSchema(schema, url);
  try {
    const { rows } = await client.query<{ wrapped_key: string | null }>(
      'SELECT wrapped_key FROM data_keys WHERE owner_id = $1',
      [ownerId],
    );
    return rows[0]?.wrapped_key ?? null;
  } finally {
    await client.end();
  }
}

async function open(): Promise<OpenedKeyVault> {
  const store = await openStore();
  return { vault: await createKeyVault(store), close: () => store.close(), storedKey };
}

keyVaultContract('postgres', open);

describe('PostgreSQL key vault specifics', () => {
  it('creates data_keys in the configured schema only', async () => {
    const store = await openStore();
    const client = await connectToSchema(schema, url);
    try {
      await createKeyVault(store);
      const { rows } = await client.query<{ table_schema: string }>(
        `SELECT table_schema FROM information_schema.tables WHERE table_name = 'data_keys' AND table_schema IN ($1, 'public')`,
        [schema],
      );
      expect(rows).toEqual([{ table_schema: schema }]);
    } finally {
      await client.end();
      await store.close();
    }
  });

  it('migrates safely when several instances start at once', async () => {
    const stores = await Promise.all([openStore(), openStore(), openStore()]);
    try {
      const vaults = await Promise.all(stores.map((store) => createKeyVault(store)));
      await vaults[0].put('trunk_migrated', 'v1.a.b.c');
      expect(await vaults[2].get('trunk_migrated')).toBe('v1.a.b.c');
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('sees a destroy made through another instance at once', async () => {
    const [first, second] = await Promise.all([openStore(), openStore()]);
    try {
      const [a, b] = await Promise.all([createKeyVault(first), createKeyVault(second)]);
      await a.put('trunk_shared', 'v1.a.b.c');
      await b.destroy('trunk_shared');
      expect(await a.get('trunk_shared')).toBe('destroyed');
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
