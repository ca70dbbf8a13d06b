import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { generateCalls, type CallRecordInput } from '../../bench/lib/calls/call-generator';
import type { ApiResponse } from '../support/http-client';
import { trunkBody } from '../support/trunk-requests';
import type { FaultEnvironment, Tenant } from './fault-env';
import { Ledger } from './ledger';

/** Past the settle deadline an unanswered request counts as a hang (status -1, never expected). */
const HANG_MS = SETTLE_DEADLINE_MS;
const BATCH = 25;

export interface TrafficMix {
  /** Relative weights of the operations. */
  create: number;
  update: number;
  rotate: number;
  ingest: number;
  read: number;
}

export const MIXED: TrafficMix = { create: 2, update: 3, rotate: 1, ingest: 3, read: 4 };

/**
 * Several concurrent clients of one tenant: trunk creates, renames and rotations, call ingestion
 * (with re-sends of earlier ids, which must replace, not add) and reads. Every request carries its
 * own X-Request-Id, which the service stores as the event's correlation id.
 */
export class Traffic {
  readonly ledger = new Ledger();
  private running = false;
  private workers: Promise<void>[] = [];
  private sequence = 0;

  constructor(
    private readonly env: FaultEnvironment,
    private readonly tenant: Tenant,
    private readonly label: string,
    private readonly mix: TrafficMix = MIXED,
  ) {}

  start(workers = 6): void {
    this.running = true;
    this.workers = Array.from({ length: workers }, (_, i) => this.work(i));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  /** Resolves once `count` more writes or records were acknowledged (or throws after timeoutMs). */
  async acknowledged(count: number, timeoutMs = SETTLE_DEADLINE_MS): Promise<void> {
    const target = this.ledger.acknowledgedWrites + this.ledger.acknowledgedCalls.size + count;
    const started = Date.now();
    while (this.ledger.acknowledgedWrites + this.ledger.acknowledgedCalls.size < target) {
      if (Date.now() - started > timeoutMs)
        throw new Error(`${this.label}: fewer than ${count} acknowledgements in ${timeoutMs} ms`);
      await pause(20);
    }
  }

  private async work(worker: number): Promise<void> {
    while (this.running) {
      const op = this.pick();
      await this[op](worker).catch((error: unknown) =>
        this.ledger.unexpected.push(`${op}: client error ${String(error)}`),
      );
      await pause(5 + Math.random() * 15);
    }
  }

  private pick(): keyof TrafficMix {
    const trunks = this.ledger.trunkIds.length;
    if (trunks < 3) return 'create';
    const entries = Object.entries(this.mix) as [keyof TrafficMix, number][];
    let roll = Math.random() * entries.reduce((sum, [, w]) => sum + w, 0);
    for (const [op, weight] of entries) if ((roll -= weight) < 0) return op;
    return 'read';
  }

  private async create(): Promise<void> {
    const { response, requestId } = await this.send('create', 'POST', '/v1/trunks', { body: trunkBody() });
    if (response?.status === 201) this.ledger.acknowledgeWrite(response.body.id, requestId);
  }

  private async update(): Promise<void> {
    const trunk = this.anyTrunk();
    const { response, requestId } = await this.send('update', 'PATCH', `/v1/trunks/${trunk}`, {
      body: { name: `Renamed ${this.label} ${this.sequence}` },
    });
    if (response?.status === 200) this.ledger.acknowledgeWrite(trunk, requestId);
  }

  private async rotate(): Promise<void> {
    const trunk = this.anyTrunk();
    const { response, requestId } = await this.send('rotate', 'POST', `/v1/trunks/${trunk}/rotate-password`, {});
    if (response?.status === 200) this.ledger.acknowledgeWrite(trunk, requestId);
  }

  private async ingest(worker: number): Promise<void> {
    const fresh = [
      ...generateCalls({
        count: BATCH,
        trunkIds: this.ledger.trunkIds,
        from: new Date(Date.now() - 86_400_000),
        to: new Date(),
        seed: worker + 1,
        startIndex: this.sequence,
      }),
    ].map((record, i) => ({ ...record, id: `call_${this.label}_${this.sequence}_${i}` }));
    // Re-sends: the gateway sends a call again when it ends; it must replace, never add.
    const again = [...this.ledger.sentCalls.values()]
      .slice(-200)
      .sort(() => Math.random() - 0.5)
      .slice(0, 5)
      .map(ended);
    const records: CallRecordInput[] = [...fresh, ...again];
    for (const record of records) this.ledger.sentCalls.set(record.id, record);
    const rawBody = records.map((r) => JSON.stringify(r)).join('\n');
    const { response } = await this.send(
      'ingest',
      'POST',
      '/v1/ingest/calls',
      { rawBody, headers: { 'content-type': 'application/x-ndjson' } },
      true,
    );
    if (response?.status !== 200) return;
    if (response.body.accepted !== records.length)
      this.ledger.unexpected.push(
        `ingest: accepted ${response.body.accepted} of ${records.length}: ${response.text.slice(0, 300)}`,
      );
    else for (const record of records) this.ledger.acknowledgedCalls.add(record.id);
  }

  private async read(): Promise<void> {
    const paths = [
      '/v1/trunks?limit=100',
      '/v1/calls?limit=20',
      `/v1/trunks/${this.anyTrunk()}`,
      '/v1/analytics/overview?granularity=hourly',
    ];
    await this.send('read', 'GET', paths[Math.floor(Math.random() * paths.length)], {});
  }

  private anyTrunk(): string {
    const ids = this.ledger.trunkIds;
    return ids[Math.floor(Math.random() * ids.length)];
  }

  private async send(
    op: string,
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string; headers?: Record<string, string> },
    gateway = false,
  ) {
    const requestId = `${this.label}-${++this.sequence}`;
    const client = this.env.client(gateway ? this.tenant.ingestKey : this.tenant.fullKey);
    const start = Date.now();
    let response: ApiResponse | null = null;
    let status: number;
    try {
      response = await withHangGuard(
        client.call(method, path, { ...options, headers: { ...options.headers, 'x-request-id': requestId } }),
      );
      status = response ? response.status : -1;
    } catch {
      status = 0;
    }
    const retryAfter = response?.headers['retry-after'] !== undefined;
    this.ledger.record(
      { start, ms: Date.now() - start, status, retryAfter, op },
      () => `${method} ${path} ${response?.text ?? ''}`,
    );
    return { response, requestId };
  }
}

function ended(record: CallRecordInput): CallRecordInput {
  return {
    ...record,
    status: record.status === 'connected' ? 'disconnected' : 'connected',
    disconnect_reason: 'normal_clearing',
  };
}

async function withHangGuard<T>(promise: Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), HANG_MS)));
  try {
    return await Promise.race([promise, gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
