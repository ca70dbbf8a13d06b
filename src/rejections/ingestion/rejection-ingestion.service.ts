import { CALL_FEED_HORIZON, CALL_REJECTIONS, FEED_HORIZON_IDS } from '../../infrastructure/clickhouse/schema';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLICKHOUSE, ClickHouseExecutor } from '../../infrastructure/clickhouse/clickhouse.port';
import { CLUSTER, ClusterServices } from '../../infrastructure/cluster/cluster.port';
import { MutexTimeoutError, RedisMutex } from '../../infrastructure/cluster/redis.mutex';
import { DomainError } from '../../shared/domain-error';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { chDateTime } from '../../calls/ingestion/call-record.row';
import { recordLines } from '../../platform/http/ndjson.parser';
import { gatewayRecordCodec, trunkKeys, trunkViewCodec } from '../../trunks/projections/trunk-view';
import { Rejection, RejectionRow } from '../rejection';
import { validateRejection } from './rejection.validation';
import { REJECTION_BATCH_OBSERVER, RejectionBatchObserver } from './rejection-batch-observer.port';

export interface RefusedRecord {
  index: number;
  id: string | null;
  code: string;
  message: string;
}

export interface RejectionIngestResult {
  accepted: number;
  rejected: RefusedRecord[];
}

interface Owner {
  account_id: string;
  trunk_id: string;
}

/**
 * Takes a gateway's rejections: validates each on its own, finds its trunk (by the trunk id the
 * gateway sent, else by the user name the carrier sent) and stores them in one INSERT before
 * answering. A gateway key may write for any account; another key only for its own, and a
 * rejection it sends for an unknown user is kept in its account without a trunk.
 */
@Injectable()
export class RejectionIngestion {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly mutex: RedisMutex | null;

  constructor(
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    @Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor,
    @Optional() @Inject(CLUSTER) cluster: ClusterServices | null = null,
    @Optional() @Inject(REJECTION_BATCH_OBSERVER) private readonly observer: RejectionBatchObserver | null = null,
  ) {
    // Instances sharing a ClickHouse server take turns across processes too (see store()).
    this.mutex =
      cluster && clickhouse.kind === 'server'
        ? new RedisMutex(cluster.redis, `${cluster.namespace}lock:call-rejections`)
        : null;
  }

  async ingest(accountId: string | null, body: unknown, now: Date): Promise<RejectionIngestResult> {
    const rejected: RefusedRecord[] = [];
    const valid: { index: number; rejection: Rejection }[] = [];
    for (const [index, line] of recordLines(body, 'rejections').entries()) {
      if (line.error !== undefined) {
        rejected.push({ index, id: null, code: 'invalid_json', message: line.error });
        continue;
      }
      const verdict = validateRejection(line.value);
      if (verdict.ok) valid.push({ index, rejection: verdict.rejection });
      else rejected.push({ index, id: idOf(line.value), code: verdict.code, message: verdict.message });
    }
    const owners = await this.ownersOf(
      valid.map((v) => v.rejection),
      accountId,
    );
    const rows: RejectionRow[] = [];
    valid.forEach(({ index, rejection }, i) => {
      const owner = owners[i];
      if (owner) rows.push(rowOf(rejection, owner, now));
      else {
        const message = `trunk ${rejection.trunk_id} does not exist in this account`;
        rejected.push({ index, id: rejection.id, code: 'unknown_trunk', message });
      }
    });
    if (rows.length > 0) await this.stored(rows, now);
    return { accepted: rows.length, rejected: rejected.sort((a, b) => a.index - b.index) };
  }

  /**
   * Stores the rows for the live stream's order (docs/analytics.md, "Calls as they happen"): one
   * INSERT at a time, each stamped above the published horizon, which is raised only after the
   * INSERT returned; a reader that serves up to the horizon never passes a row still landing.
   */
  private async stored(rows: RejectionRow[], now: Date): Promise<void> {
    const write = async () => {
      const [row] = await this.clickhouse.query<{ ms: number | string }>(
        `SELECT max(version) AS ms FROM ${CALL_FEED_HORIZON.name} WHERE id = {id:UInt8}`,
        { id: FEED_HORIZON_IDS.rejections },
      );
      const at = Math.max(now.getTime(), Number(row?.ms ?? 0) + 1);
      const stamp = chDateTime(new Date(at));
      await this.clickhouse.insert(
        CALL_REJECTIONS.name,
        rows.map((r) => ({ ...r, ingested_at: stamp })),
      );
      await this.clickhouse.insert(CALL_FEED_HORIZON.name, [{ id: FEED_HORIZON_IDS.rejections, version: at }]);
    };
    const turn = this.chain.then(() => (this.mutex ? this.mutex.withLock(write) : write()));
    this.chain = turn.catch(() => undefined);
    try {
      await turn;
    } catch (error) {
      if (error instanceof MutexTimeoutError)
        throw new DomainError('service_unavailable', 'Rejection ingestion is busy; retry shortly', {
          retryAfterSeconds: 1,
        });
      throw error;
    }
    this.observer?.rejectionsStored([...new Set(rows.map((r) => r.account_id))]);
  }

  /** Each rejection's account and trunk (null: a trunk id not in the key's account), in one read. */
  private async ownersOf(rejections: Rejection[], accountId: string | null): Promise<(Owner | null)[]> {
    const keys = rejections.map((r) =>
      r.trunk_id !== null ? trunkKeys.trunk(r.trunk_id) : r.sip_username ? trunkKeys.gateway(r.sip_username) : null,
    );
    const wanted = keys.filter((key): key is string => key !== null);
    const values = wanted.length > 0 ? await this.store.mget(wanted) : [];
    const found = new Map(wanted.map((key, i) => [key, values[i]]));
    const mine = (owner: string) => accountId === null || owner === accountId;
    return rejections.map((r, i): Owner | null => {
      const value = keys[i] === null ? null : (found.get(keys[i]!) ?? null);
      if (r.trunk_id !== null) {
        const trunk = trunkViewCodec.decode(value);
        return trunk && mine(trunk.account_id) ? { account_id: trunk.account_id, trunk_id: trunk.id } : null;
      }
      const gateway = gatewayRecordCodec.decode(value);
      if (gateway && mine(gateway.account_id)) return { account_id: gateway.account_id, trunk_id: gateway.trunk_id };
      return { account_id: accountId ?? '', trunk_id: '' };
    });
  }
}

function rowOf(r: Rejection, owner: Owner, now: Date): RejectionRow {
  return {
    ...owner,
    at: chDateTime(r.at),
    rejection_id: r.id,
    reason: r.reason,
    sip_code: r.sip_code,
    sip_reason: r.sip_reason ?? '',
    source_address: r.source_address,
    sip_username: r.sip_username.toLowerCase(),
    from_number: r.from,
    to_number: r.to,
    ingested_at: chDateTime(now),
  };
}

function idOf(value: unknown): string | null {
  const id = value && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id.length <= 100 ? id : null;
}
