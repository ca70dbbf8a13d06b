import * as sql from './key-vault.sql';
import { migrateLocked, toStoreError } from '../event-store/postgres/event-rows';
import type { Statement } from '../event-store/postgres/event-store.sql';
import type { SqlClient } from '../event-store/postgres/sql-client';
import { checkVaultArgs, DataKeyConflictError, type KeyVault } from './key-vault.port';

/** Owners per read: a page of a rebuild asks for at most its batch's trunks. */
const READ_CHUNK = 1000;

type Answer = string | 'destroyed' | null;
interface Waiter {
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

function answerOf(row: sql.DataKeyRow | undefined): Answer {
  if (!row) return null;
  return row.destroyed_at !== null || row.wrapped_key === null ? 'destroyed' : row.wrapped_key;
}

/** Creates the data_keys table in the connection's schema; safe to run from several processes at once. */
export function migrateKeyVault(client: SqlClient): Promise<void> {
  return migrateLocked(client, sql.LOCK_MIGRATIONS, sql.SCHEMA_DDL);
}

/**
 * The key vault over PostgreSQL or PGlite, on the event store's own connection (PGlite allows
 * one instance per directory). Storage failures surface as EventStoreUnavailableError (503).
 */
export class SqlKeyVault implements KeyVault {
  /** The owners asked for since the last read went out, with who waits for each. */
  private asked: Map<string, Waiter[]> | null = null;

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

  /**
   * Reads asked for in the same tick go as one statement: a projection's page starts the
   * decryptions of all its trunks at once (trunks.projection.ts), one statement instead of one
   * round trip each. Each get still reads what was committed when its statement ran, which
   * starts after every put or destroy that resolved before the get was called.
   */
  async get(ownerId: string): Promise<Answer> {
    checkVaultArgs(ownerId);
    return this.ask(ownerId);
  }

  async destroy(ownerId: string): Promise<void> {
    checkVaultArgs(ownerId);
    await this.run(sql.destroyKey, { ownerId });
  }

  private ask(ownerId: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      if (!this.asked) {
        this.asked = new Map();
        queueMicrotask(() => void this.readAsked());
      }
      const waiting = this.asked.get(ownerId);
      if (waiting) waiting.push({ resolve, reject });
      else this.asked.set(ownerId, [{ resolve, reject }]);
    });
  }

  private async readAsked(): Promise<void> {
    const asked = this.asked!;
    this.asked = null;
    const owners = [...asked.keys()];
    const chunks: string[][] = [];
    for (let i = 0; i < owners.length; i += READ_CHUNK) chunks.push(owners.slice(i, i + READ_CHUNK));
    await Promise.all(
      chunks.map(async (ownerIds) => {
        try {
          const rows = await this.run(sql.selectKeys, { ownerIds });
          const found = new Map(rows.map((row) => [row.owner_id, row]));
          for (const id of ownerIds) for (const waiter of asked.get(id)!) waiter.resolve(answerOf(found.get(id)));
        } catch (error) {
          for (const id of ownerIds) for (const waiter of asked.get(id)!) waiter.reject(error);
        }
      }),
    );
  }

  private async run<P, R>(statement: Statement<P, R>, params: P): Promise<R[]> {
    try {
      return (await this.client.query<R>(statement.text, statement.values(params))).rows;
    } catch (error) {
      throw toStoreError(error);
    }
  }
}
