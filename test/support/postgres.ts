import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export function testDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** `<prefix>_<random>`: concurrent test files and runs never share a schema. */
export function uniqueSchemaName(prefix = 'test'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** A connection whose unqualified names resolve in `schema` (as the store's own connections do). */
export async function connectToSchema(schema: string, url = testDatabaseUrl()): Promise<Client> {
  const client = new Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  return client;
}

export async function dropSchema(schema: string, url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * An isolated schema for one test file on the real PostgreSQL. Call it at the top of the file:
 * the schema is dropped after everything else in the file, so close connections to it in the
 * afterAll of a describe block (those run first); DROP waits for locks still held.
 */
export function useIsolatedSchema(prefix = 'test'): { url: string; schema: string } {
  const url = testDatabaseUrl();
  const schema = uniqueSchemaName(prefix);
  afterAll(() => dropSchema(schema, url));
  return { url, schema };
}
