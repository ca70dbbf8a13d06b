import { type LoadTarget, sendWrites, type WriteRequest } from '../lib/http-load';
import { getOnce } from '../lib/probe';
import type { SeedFigures } from './trunks-report';

const PAGE = 100;
const TOP_UP_ATTEMPTS = 3;

interface TrunkPage {
  trunks: { id: string }[];
  pagination: { total: number };
}

/** GET /v1/trunks through the API, as any client sees it; target.url is the server's origin. */
async function listPage(target: LoadTarget, limit: number, offset: number): Promise<TrunkPage> {
  const response = await getOnce(`${target.url}/v1/trunks?limit=${limit}&offset=${offset}`, target.ca, target.headers);
  if (response.status !== 200) throw new Error(`GET /v1/trunks: ${response.status} ${response.body}`);
  return JSON.parse(response.body) as TrunkPage;
}

export async function trunkTotal(target: LoadTarget): Promise<number> {
  return (await listPage(target, 1, 0)).pagination.total;
}

/** The ids of the newest `count` trunks (fewer if the account has fewer). */
export async function newestTrunkIds(target: LoadTarget, count: number): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < count) {
    const page = await listPage(target, Math.min(PAGE, count - ids.length), ids.length);
    ids.push(...page.trunks.map((trunk) => trunk.id));
    if (page.trunks.length === 0) break;
  }
  return ids;
}

/**
 * Creates trunks by concurrent POSTs until the account holds `wanted`. A create returns only
 * once its projections have run, so the total read afterwards is exact; a refused create (none
 * expected) is made up for by another batch.
 */
export async function fillAccount(
  target: LoadTarget,
  create: WriteRequest,
  wanted: number,
  connections: number,
): Promise<SeedFigures> {
  const before = await trunkTotal(target);
  const figures: SeedFigures = { before, created: 0, seconds: 0, total: before, statuses: {}, errors: 0 };
  for (let attempt = 0; attempt < TOP_UP_ATTEMPTS && figures.total < wanted; attempt++) {
    const batch = await sendWrites(target, create, connections, wanted - figures.total);
    figures.seconds += batch.seconds;
    figures.errors += batch.errors;
    for (const [status, count] of Object.entries(batch.statuses))
      figures.statuses[status] = (figures.statuses[status] ?? 0) + count;
    const total = await trunkTotal(target);
    figures.created += total - figures.total;
    figures.total = total;
  }
  if (figures.total < wanted)
    throw new Error(`the account holds ${figures.total} trunks after ${TOP_UP_ATTEMPTS} batches, not ${wanted}`);
  return figures;
}
