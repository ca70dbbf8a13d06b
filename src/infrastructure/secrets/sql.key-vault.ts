import * as sql from './key-vault.sql';
import { migrateLocked, toStoreError } from '../event-store/postgres/event-rows';
import type { Statement } from '../event-store/postgres/event-store.sql';
import type { SqlClient } from '../event-store/postgres/sql-client';
import { checkVaultArgs, DataKeyConflictError, type KeyVault } from './key-vault.port';

/** Creates the data_keys table in the connection's schema; safe to run from several processes at once. */
export function migrateKeyVault(client: SqlClient): Promise<void> {
  return migrateLocked(client, sql.LOCK_MIGRATIONS, sql.SCHEMA_DDL);
}

/**
 * The key vault over PostgreSQL or PGlite, on the event store's own connection (PGlite allows
 * one instance per directory). Storage failures surface as EventStoreUnavailableError (503).
 */
export class SqlKeyVault implements KeyVault {
  constructor(private readonly client: SqlClient) {}

  async put(ownerId: string, wrappedKey: string): Promise<void> {
    checkVaultArgs(ownerId, wrappedKey);
    const inserted = await this.run(sql.insertKey, { ownerId, wrappedKey });
    if (inserted.length > 0) return;
    // Lost to an existing row (a retry, a concurrent put, or a tombstone): a separate statement,
    // so under READ COMMITTED it sees the row that won even if it committed after our insert began.
    const current = await this.get(ownerId);
    if (current === wrappedKey) return;
    throw new DataKeyConflictError(ownerId, current === 'destroyed' ? 'destroyed' : 'exists');
  }

  async get(ownerId: string): Promise<string | 'destroyed' | null> {
    checkVaultArgs(ownerId);
    const [row] = await this.run(sql.selectKey, { ownerId });
    if (!row) return null;
    return row.destroyed_at !== null || row.wrapped_key === null ? 'destroyed' : row.wrapped_key;
  }

  async destroy(ownerId: string): Promise<void> {
    checkVaultArgs(ownerId);
    await this.run(sql.destroyKey, { ownerId });
  }

  private async run<P, R>(statement: Statement<P, R>, params: P): Promise<R[]> {
    try {
      return (await this.client.query<R>(statement.text, statement.values(params))).rows;
    } catch (error) {
      throw toStoreError(error);
    }
  }
}
