import { Agent, request } from 'undici';
import { generateCalls } from '../lib/calls/call-generator';

export interface SoakRequest {
  kind: 'ingest' | 'read' | 'write' | 'analytics';
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  key: 'account' | 'ingest';
  body?: string;
  contentType?: string;
  /** Ingestion: the new call ids, readable once the batch is acknowledged. */
  ids?: string[];
}

/** Shares of the mix, in percent. */
const MIX: [number, (t: SoakTraffic) => SoakRequest][] = [
  [15, (t) => t.ingest()],
  [45, (t) => t.read()],
  [25, (t) => t.write()],
  [15, (t) => t.analytics()],
];
const BASE_TRUNKS = 40;
const RECORDS_PER_BATCH = 20;

/**
 * The soak's mixed requests: ingestion batches (a tenth of their records re-sent, as a gateway
 * does when a call ends), reads of trunks and calls, trunk renames, rotations, and create/delete
 * pairs (so the number of trunks stays level), and analytics overviews.
 */
export class SoakTraffic {
  readonly trunks: string[] = [];
  /** Trunks created by the soak beyond the base ones, deleted again. */
  private readonly extra: string[] = [];
  private readonly recentCalls: string[] = [];
  private sequence = 0;

  constructor(
    private readonly agent: Agent,
    private readonly origin: string,
    private readonly keys: { account: string; ingest: string },
  ) {}

  async setup(): Promise<void> {
    for (let i = 0; i < BASE_TRUNKS; i++) this.trunks.push(await this.createTrunk());
  }

  next(): SoakRequest {
    let roll = Math.random() * 100;
    for (const [share, make] of MIX) if ((roll -= share) < 0) return make(this);
    return this.read();
  }

  /** Sends one request; resolves with its status (0: no answer) after the body is read. */
  async send(req: SoakRequest): Promise<number> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${req.key === 'ingest' ? this.keys.ingest : this.keys.account}`,
    };
    if (req.contentType) headers['content-type'] = req.contentType;
    try {
      const response = await request(`${this.origin}${req.path}`, {
        method: req.method,
        headers,
        body: req.body,
        dispatcher: this.agent,
      });
      const text = await response.body.text();
      this.learn(req, response.statusCode, text);
      return response.statusCode;
    } catch {
      return 0;
    }
  }

  ingest(): SoakRequest {
    const n = ++this.sequence;
    const records = [
      ...generateCalls({
        count: RECORDS_PER_BATCH,
        trunkIds: this.trunks,
        from: new Date(Date.now() - 3_600_000),
        to: new Date(),
        seed: 11,
        startIndex: n * RECORDS_PER_BATCH,
      }),
    ].map((r, i) => ({
      ...r,
      id: i < 2 && this.recentCalls.length > 0 ? this.pick(this.recentCalls) : `call_soak_${n}_${i}`,
    }));
    return {
      kind: 'ingest',
      ids: records.slice(2).map((r) => r.id),
      method: 'POST',
      path: '/v1/ingest/calls',
      key: 'ingest',
      body: records.map((r) => JSON.stringify(r)).join('\n'),
      contentType: 'application/x-ndjson',
    };
  }

  read(): SoakRequest {
    const paths = [
      '/v1/trunks?limit=20',
      `/v1/trunks/${this.pick(this.trunks)}`,
      '/v1/calls?limit=20',
      `/v1/calls?limit=20&trunk_id=${this.pick(this.trunks)}`,
    ];
    if (this.recentCalls.length > 0) paths.push(`/v1/calls/${this.pick(this.recentCalls)}`);
    return { kind: 'read', method: 'GET', path: this.pick(paths), key: 'account' };
  }

  write(): SoakRequest {
    const roll = Math.random();
    if (roll < 0.5)
      return this.json('PATCH', `/v1/trunks/${this.pick(this.trunks)}`, { name: `Soak ${++this.sequence}` });
    if (roll < 0.75) return this.json('POST', `/v1/trunks/${this.pick(this.trunks)}/rotate-password`, undefined);
    if (roll < 0.9 || this.extra.length === 0) return this.json('POST', '/v1/trunks', trunkBody(++this.sequence));
    return { kind: 'write', method: 'DELETE', path: `/v1/trunks/${this.extra.shift()}`, key: 'account' };
  }

  analytics(): SoakRequest {
    const granularity = Math.random() < 0.5 ? 'hourly' : 'daily';
    const trunk = Math.random() < 0.3 ? `&trunk_id=${this.pick(this.trunks)}` : '';
    return {
      kind: 'analytics',
      method: 'GET',
      path: `/v1/analytics/overview?granularity=${granularity}${trunk}`,
      key: 'account',
    };
  }

  private json(method: SoakRequest['method'], path: string, body: unknown): SoakRequest {
    return {
      kind: 'write',
      method,
      path,
      key: 'account',
      body: body === undefined ? undefined : JSON.stringify(body),
      contentType: body === undefined ? undefined : 'application/json',
    };
  }

  private learn(req: SoakRequest, status: number, text: string): void {
    if (req.method === 'POST' && req.path === '/v1/trunks' && status === 201) this.extra.push(JSON.parse(text).id);
    if (req.kind === 'ingest' && status === 200) for (const id of req.ids ?? []) this.remember(id);
  }

  private remember(id: string): void {
    this.recentCalls.push(id);
    if (this.recentCalls.length > 5000) this.recentCalls.splice(0, 1000);
  }

  private pick<T>(list: T[]): T {
    return list[Math.floor(Math.random() * list.length)];
  }

  private async createTrunk(): Promise<string> {
    const response = await request(`${this.origin}/v1/trunks`, {
      method: 'POST',
      dispatcher: this.agent,
      headers: { authorization: `Bearer ${this.keys.account}`, 'content-type': 'application/json' },
      body: JSON.stringify(trunkBody(++this.sequence)),
    });
    const text = await response.body.text();
    if (response.statusCode !== 201) throw new Error(`creating a trunk: ${response.statusCode} ${text}`);
    return JSON.parse(text).id;
  }
}

function trunkBody(n: number): Record<string, string> {
  const id = `${Date.now().toString(36)}-${n}`;
  return {
    name: `Soak line ${id}`,
    ai_provider: 'custom',
    sip_username: `soak-${id}`,
    sip_password: 'soak-password-123',
    custom_endpoint: 'wss://agent.example.com/ws',
  };
}
