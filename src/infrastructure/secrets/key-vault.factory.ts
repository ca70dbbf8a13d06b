import type { EventStore } from '../event-store/event-store.port';
import { EventStoreDbEventStore } from '../event-store/eventstoredb/eventstoredb.event-store';
import { PostgresEventStore } from '../event-store/postgres/postgres.event-store';
import { EventStoreDbKeyVault } from './eventstoredb.key-vault';
import type { KeyVault } from './key-vault.port';
import { migrateKeyVault, SqlKeyVault } from './sql.key-vault';

/**
 * The vault lives in the same store as the events, on the store's own connection: PGlite allows
 * one instance per directory, and one place to back up (and to shred from) is simpler to run.
 * The vault is closed with the store.
 */
export async function createKeyVault(store: EventStore): Promise<KeyVault> {
  if (store instanceof PostgresEventStore) {
    await migrateKeyVault(store.sql);
    return new SqlKeyVault(store.sql);
  }
  if (store instanceof EventStoreDbEventStore) return new EventStoreDbKeyVault(store.native);
  throw new Error(`no key vault for event store ${store.constructor.name}`);
}
