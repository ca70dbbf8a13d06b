import type { Statement } from '../event-store/postgres/event-store.sql';

/**
 * Every SQL statement of the PostgreSQL / PGlite key vault. Like the event store's, the table is
 * named without a schema: the shared connection's search_path already points at the store's
 * schema, so the vault's table sits beside `events` and no identifier is built per call.
 */

const statement = <P, R>(text: string, values: (params: P) => unknown[]): Statement<P, R> => ({ text, values });

/** Own lock key: the vault migrates after the event store, possibly from several processes. */
export const LOCK_MIGRATIONS = `SELECT pg_advisory_xact_lock(hashtext('trunkline.key-vault.migrate'))`;

/**
 * A row is either live (a wrapped key, no destroyed_at) or a tombstone (no key, destroyed_at):
 * the tombstone stays so that a destroyed owner can never be given a key again.
 */
export const SCHEMA_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS data_keys (
     owner_id text PRIMARY KEY,
     wrapped_key text NULL,
     destroyed_at timestamptz NULL,
     CONSTRAINT data_keys_live_or_tombstone CHECK ((wrapped_key IS NULL) = (destroyed_at IS NOT NULL))
   )`,
];

export interface DataKeyRow {
  wrapped_key: string | null;
  destroyed_at: Date | string | null;
}

/** Returns a row only when this call stored the key; otherwise the caller compares with what get() reads. */
export const insertKey = statement<{ ownerId: string; wrappedKey: string }, { owner_id: string }>(
  `INSERT INTO data_keys (owner_id, wrapped_key) VALUES ($1, $2)
     ON CONFLICT (owner_id) DO NOTHING RETURNING owner_id`,
  (p) => [p.ownerId, p.wrappedKey],
);

/** The rows of several owners at once (those that have one); a primary-key lookup per owner. */
export const selectKeys = statement<{ ownerIds: readonly string[] }, DataKeyRow & { owner_id: string }>(
  'SELECT owner_id, wrapped_key, destroyed_at FROM data_keys WHERE owner_id = ANY($1::text[])',
  (p) => [p.ownerIds],
);

/**
 * Upsert so that destroying an owner that never had a key still leaves a tombstone; the first
 * destruction time is kept. The UPDATE leaves the old row version dead in the heap until VACUUM,
 * and in WAL and backups for their retention: those copies are still wrapped by the master key.
 */
export const destroyKey = statement<{ ownerId: string }, never>(
  `INSERT INTO data_keys (owner_id, wrapped_key, destroyed_at) VALUES ($1, NULL, now())
     ON CONFLICT (owner_id) DO UPDATE
       SET wrapped_key = NULL, destroyed_at = coalesce(data_keys.destroyed_at, excluded.destroyed_at)`,
  (p) => [p.ownerId],
);
