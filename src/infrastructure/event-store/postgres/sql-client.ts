import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';

/** The little the event store needs from a PostgreSQL connection: pg.Pool and PGlite both fit. */
export interface SqlClient {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Over a pg.Pool. Parameterised statements are named, so each pooled connection parses and plans
 * a statement once and then only binds and executes it.
 */
export class PgPoolSqlClient implements SqlClient {
  private readonly names = new Map<string, string>();

  constructor(private readonly pool: Pool) {}

  async query<T>(text: string, params: unknown[] = []): Promise<{ rows: T[] }> {
    const name = params.length > 0 ? this.nameOf(text) : undefined;
    const result = await this.pool.query({ name, text, values: params });
    return { rows: result.rows as T[] };
  }

  async transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
    const connection = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await connection.query('BEGIN');
      const result = await fn(new PgConnectionSqlClient(connection, this.names));
      await connection.query('COMMIT');
      return result;
    } catch (error) {
      await connection.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      // A connection that cannot even roll back is dropped rather than handed to the next caller.
      connection.release(broken);
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  private nameOf(text: string): string {
    return nameStatement(this.names, text);
  }
}

function nameStatement(names: Map<string, string>, text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `trunkline_es_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

/** One checked-out connection inside a transaction. */
class PgConnectionSqlClient implements SqlClient {
  constructor(
    private readonly connection: PoolClient,
    private readonly names: Map<string, string>,
  ) {}

  async query<T>(text: string, params: unknown[] = []): Promise<{ rows: T[] }> {
    const name = params.length > 0 ? nameStatement(this.names, text) : undefined;
    const result = await this.connection.query({ name, text, values: params });
    return { rows: result.rows as T[] };
  }

  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
    return fn(this); // already inside one
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Over one PGlite instance (a single connection). PGlite queues its own work: query(), exec()
 * and transaction() all take the same internal transaction mutex, so a transaction never
 * interleaves with other statements and no extra lock is needed here. Inside a transaction,
 * statements must go through the Transaction object (the instance's own query() would wait for
 * the mutex the transaction holds).
 */
export class PgliteSqlClient implements SqlClient {
  constructor(private readonly db: PGlite) {}

  async query<T>(text: string, params: unknown[] = []): Promise<{ rows: T[] }> {
    const result = await this.db.query<T>(text, params);
    return { rows: result.rows };
  }

  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new PgliteTransactionSqlClient(tx)));
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
  }
}

class PgliteTransactionSqlClient implements SqlClient {
  constructor(private readonly tx: Transaction) {}

  async query<T>(text: string, params: unknown[] = []): Promise<{ rows: T[] }> {
    const result = await this.tx.query<T>(text, params);
    return { rows: result.rows };
  }

  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
    return fn(this);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
