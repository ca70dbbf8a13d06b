import type { Logger } from 'pino';
import { accountKeys } from '../accounts/projections/accounts.projection';
import { trunkKeys } from '../trunks/projections/trunk-view';
import type { ClusterServices } from '../infrastructure/cluster/cluster.port';
import { RecordInvalidations } from '../infrastructure/cluster/record-invalidations';
import { CachingReadModelStore } from '../infrastructure/read-model/caching.read-model-store';
import { RecordCache } from '../infrastructure/read-model/record-cache';
import type { ReadModelStore } from '../infrastructure/read-model/read-model-store.port';

/** The records the request gate answers from (read-ahead.routes.ts): an account, a trunk, a gateway record. */
export const GATE_RECORD_PREFIXES: readonly string[] = [
  accountKeys.account(''),
  trunkKeys.trunk(''),
  trunkKeys.gateway(''),
];

export const isGateRecord = (key: string): boolean => GATE_RECORD_PREFIXES.some((prefix) => key.startsWith(prefix));

/** Copies kept per instance at most, and the most characters they hold (a trunk record is 1-3 KB). */
const RECORD_CACHE_ENTRIES = 50_000;
const RECORD_CACHE_CHARS = 16 * 1024 * 1024;

/** The gate's store (cached or not) and, among instances, what keeps every instance's copies coherent. */
export interface GateRecords {
  store: ReadModelStore;
  /** With Redis: the drops the projection leader publishes before it announces a batch. */
  invalidations: RecordInvalidations | null;
}

/**
 * With Redis (cluster services): this instance's record cache, unless RECORD_CACHE_TTL_MS is 0,
 * and the invalidations every instance publishes when it leads the projections (whatever its own
 * cache: another instance may hold copies). Without Redis the read models are this process's
 * memory already: no copies, nothing to invalidate.
 */
export async function connectGateRecords(
  store: ReadModelStore,
  cluster: ClusterServices | null,
  ttlMs: number,
  logger: Logger,
): Promise<GateRecords> {
  if (!cluster) return { store, invalidations: null };
  const bus = cluster.bus;
  const cache =
    ttlMs > 0
      ? new RecordCache({
          ttlMs,
          covers: isGateRecord,
          maxEntries: RECORD_CACHE_ENTRIES,
          maxChars: RECORD_CACHE_CHARS,
          usable: () => bus.connected,
        })
      : null;
  const invalidations = await RecordInvalidations.connect(cache, isGateRecord, bus, cluster.namespace, logger);
  return { store: cache ? new CachingReadModelStore(store, cache) : store, invalidations };
}
