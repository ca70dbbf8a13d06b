import { eventHash, recordOf } from '../event-hash';
import type { EventRow } from './event-store.sql';
import {
  CHAIN_UPGRADE_DDL,
  chainColumnState,
  REQUIRE_HASH,
  SET_HEAD_HASHES,
  setLinks,
  unhashedPage,
} from './chain-upgrade.sql';
import { toStoredEvent } from './event-rows';
import type { SqlClient } from './sql-client';

const PAGE = 1000;

/**
 * Brings a store created before the hash chain up to it, inside the migration's transaction:
 * adds the columns, computes every stored event's link in stream order (the same function
 * appends use) and only then requires them. Returns how many events got a link; 0 on a store that
 * already has the chain (one catalog query). Such links prove the events unchanged since the
 * migration, not before it: docs/audit.md.
 */
export async function upgradeToChain(tx: SqlClient): Promise<number> {
  const [state] = (await tx.query<{ has_hash: boolean; hash_required: boolean }>(chainColumnState.text)).rows;
  if (state.has_hash && state.hash_required) return 0;
  for (const ddl of CHAIN_UPGRADE_DDL) await tx.query(ddl);
  const linked = await backfill(tx);
  await tx.query(SET_HEAD_HASHES);
  await tx.query(REQUIRE_HASH);
  return linked;
}

async function backfill(tx: SqlClient): Promise<number> {
  let after = { afterStream: '', afterRevision: '-1' };
  let previous: { stream: string; hash: string } | null = null;
  let linked = 0;
  for (;;) {
    const { rows } = await tx.query<EventRow>(unhashedPage.text, unhashedPage.values({ ...after, limit: PAGE }));
    if (rows.length === 0) return linked;
    const update = { ids: [] as string[], hashes: [] as string[], previous: [] as (string | null)[] };
    for (const row of rows) {
      const event = toStoredEvent(row);
      const previousHash = previous?.stream === event.streamId ? previous.hash : null;
      const hash = eventHash(recordOf({ ...event, previousHash }));
      update.ids.push(event.id);
      update.hashes.push(hash);
      update.previous.push(previousHash);
      previous = { stream: event.streamId, hash };
    }
    await tx.query(setLinks.text, setLinks.values(update));
    const last = rows[rows.length - 1];
    after = { afterStream: last.stream_id, afterRevision: last.revision };
    linked += rows.length;
  }
}
