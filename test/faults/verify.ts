import type { ApiClient, ApiResponse } from '../support/http-client';
import { EVENT_SCHEMA, type FaultEnvironment, type Tenant } from './fault-env';
import type { Ledger } from './ledger';

export interface Verification {
  acknowledged: number;
  found: number;
  lost: string[];
  duplicated: string[];
}

/**
 * After the fault is over: every acknowledged write and record must be readable, and nothing may
 * be counted twice, neither in the event store nor in any read model or analytics figure.
 */
export async function verify(env: FaultEnvironment, tenant: Tenant, ledger: Ledger): Promise<Verification> {
  const full = env.client(tenant.fullKey);
  const lost: string[] = [];
  const duplicated: string[] = [];
  let found = 0;

  for (const [trunkId, writes] of ledger.trunkWrites) {
    const trunk = await full.get(`/v1/trunks/${trunkId}`);
    if (trunk.status !== 200) lost.push(`trunk ${trunkId}: GET ${trunk.status}`);
    const history = await full.get(`/v1/trunks/${trunkId}/events?limit=100`);
    const correlations = (history.body?.events ?? []).map((e: { correlation_id: string }) => e.correlation_id);
    for (const requestId of writes) {
      const times = correlations.filter((c: string) => c === requestId).length;
      if (times === 0) lost.push(`trunk ${trunkId}: event of ${requestId} missing (history ${history.status})`);
      else found += 1;
      if (times > 1) duplicated.push(`trunk ${trunkId}: ${times} events of ${requestId}`);
    }
  }

  const listed = await pageTrunks(full);
  if (listed.ids.size !== listed.total)
    duplicated.push(`trunk list: total ${listed.total}, distinct ${listed.ids.size}`);
  for (const trunkId of ledger.trunkIds)
    if (!listed.ids.has(trunkId)) lost.push(`trunk ${trunkId}: not in GET /v1/trunks`);
  const [{ created }] = await env.postgres.query<{ created: string }>(
    `SELECT count(*) AS created FROM ${EVENT_SCHEMA}.events WHERE type = 'TrunkCreated' AND data->>'account_id' = $1`,
    [tenant.accountId],
  );
  if (Number(created) !== listed.total)
    duplicated.push(`trunk list: total ${listed.total}, event store has ${created} TrunkCreated`);
  // One request appends one event of a type to a stream; twice would be a command applied twice.
  const repeated = await env.postgres.query<{ correlation: string; stream: string; type: string; n: string }>(
    `SELECT metadata->>'correlation_id' AS correlation, stream_id AS stream, type, count(*) AS n FROM ${EVENT_SCHEMA}.events
      WHERE data->>'account_id' = $1 GROUP BY 1, 2, 3 HAVING count(*) > 1`,
    [tenant.accountId],
  );
  for (const row of repeated)
    duplicated.push(`event store: ${row.n} ${row.type} events in ${row.stream} from request ${row.correlation}`);

  const calls = await checkCalls(full, ledger);
  found += calls.found;
  lost.push(...calls.lost);
  duplicated.push(...calls.duplicated);
  return { acknowledged: ledger.acknowledgedWrites + ledger.acknowledgedCalls.size, found, lost, duplicated };
}

async function pageTrunks(client: ApiClient): Promise<{ ids: Set<string>; total: number }> {
  const ids = new Set<string>();
  let total: number;
  for (let offset = 0; ; offset += 100) {
    const page = await client.get(`/v1/trunks?limit=100&offset=${offset}&sort=created_at`);
    if (page.status !== 200) throw new Error(`GET /v1/trunks: ${page.status} ${page.text}`);
    total = page.body.pagination.total;
    for (const trunk of page.body.trunks) ids.add(trunk.id);
    if (page.body.trunks.length < 100) return { ids, total };
  }
}

async function checkCalls(client: ApiClient, ledger: Ledger): Promise<Omit<Verification, 'acknowledged'>> {
  const lost: string[] = [];
  const duplicated: string[] = [];
  const acknowledged = [...ledger.acknowledgedCalls];
  let found = 0;
  for (let i = 0; i < acknowledged.length; i += 16) {
    const answers = await Promise.all(acknowledged.slice(i, i + 16).map((id) => client.get(`/v1/calls/${id}`)));
    answers.forEach((answer, j) =>
      answer.status === 200 ? (found += 1) : lost.push(`call ${acknowledged[i + j]}: GET ${answer.status}`),
    );
  }
  const ids = new Set<string>();
  let listed = 0;
  let total = -1;
  for (let cursor: string | null = null; ;) {
    const page: ApiResponse = await client.get(`/v1/calls?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    if (page.status !== 200) throw new Error(`GET /v1/calls: ${page.status} ${page.text}`);
    if (total < 0) total = page.body.pagination.total;
    for (const call of page.body.calls) ids.add(call.id);
    listed += page.body.calls.length;
    cursor = page.body.pagination.next_cursor;
    if (!cursor) break;
  }
  if (listed !== ids.size || total !== ids.size)
    duplicated.push(`call list: total ${total}, listed ${listed}, distinct ${ids.size}`);
  for (const id of ids) if (!ledger.sentCalls.has(id)) duplicated.push(`call list: ${id} was never sent`);
  const start = new Date(Date.now() - 3 * 86_400_000).toISOString();
  const overview = await client.get(`/v1/analytics/overview?start_date=${start}`);
  if (overview.body?.summary?.total_calls !== ids.size)
    duplicated.push(
      `analytics: total_calls ${overview.body?.summary?.total_calls} (${overview.status}), calls ${ids.size}`,
    );
  return { found, lost, duplicated };
}
