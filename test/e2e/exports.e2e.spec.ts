import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import { Agent, request } from 'undici';
import { DecideExport } from '../../src/exports/write/export.handlers';
import { EmbeddedClickHouse } from '../../src/infrastructure/clickhouse/embedded/embedded.clickhouse';
import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import { until } from '../support/free-port';
import { ApiClient, ApiResponse, expectError } from '../support/http-client';
import { provisionAccountDirect, startTestApp, TestApp } from '../support/test-app';
import { trunkBody } from '../support/trunk-requests';
import { WebhookReceiver } from './webhooks-support';

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** RFC 4180 as ClickHouse's CSVWithNames writes it: strings quoted, numbers bare, NULL as \N. */
function parseCsv(text: string): Record<string, unknown>[] {
  const rows: unknown[][] = [];
  let row: unknown[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        if (text[i] === '"' && text[i + 1] === '"') {
          value += '"';
          i += 2;
        } else if (text[i] === '"') {
          i++;
          break;
        } else value += text[i++];
      }
      row.push(value);
    } else {
      let end = i;
      while (end < text.length && text[end] !== ',' && text[end] !== '\n') end++;
      const raw = text.slice(i, end);
      row.push(raw === '\\N' ? null : Number(raw));
      i = end;
    }
    if (text[i] === ',') i++;
    else if (text[i] === '\n') {
      rows.push(row);
      row = [];
      i++;
    }
  }
  const [header, ...body] = rows as string[][];
  return body.map((values) => Object.fromEntries(header.map((name, k) => [name, values[k]])));
}

async function refused(pending: Promise<ApiResponse>, status: number, code: string, param?: string): Promise<void> {
  const response = await pending;
  expectError(response, status, code);
  if (param !== undefined) expect(response.body.error.param).toBe(param);
}

describe('exports: POST /v1/exports → job → file', () => {
  let app: TestApp;
  let client: ApiClient;
  let reader: ApiClient;
  let other: ApiClient;
  let readKey: string;
  let trunkId: string;
  let engine: EmbeddedClickHouse;
  const receiver = new WebhookReceiver();
  let hook: string;
  const scratch = mkdtempSync(join(tmpdir(), 'exports-e2e-'));
  const now = Date.now();
  const range = { start_date: new Date(now - 10 * HOUR).toISOString(), end_date: new Date(now).toISOString() };

  const record = (id: string, startMs: number, overrides: Record<string, unknown> = {}) => ({
    id,
    trunk_id: trunkId,
    from: '+14155550100',
    to: id.endsWith('7') ? 'anonymous' : '+14155550199',
    status: ['connected', 'failed', 'disconnected'][Number(id.slice(-1)) % 3],
    direction: Number(id.slice(-1)) % 2 === 0 ? 'inbound' : 'outbound',
    start_time: new Date(startMs).toISOString(),
    end_time: new Date(startMs + 45_000).toISOString(),
    carrier_lag_ms: 20,
    ai_latency_ms: 300 + Number(id.slice(-1)),
    gateway_processing_ms: 5,
    ...overrides,
  });

  /** The file's bytes, through the same HTTPS front door (the shared client reads bodies as text). */
  const download = async (path: string, key: string) => {
    const agent = new Agent({ connect: { ca: app.running.tls!.cert } });
    try {
      const response = await request(`${client.origin}${path}`, {
        headers: { authorization: `Bearer ${key}` },
        dispatcher: agent,
      });
      return {
        status: response.statusCode,
        headers: response.headers,
        bytes: Buffer.from(await response.body.arrayBuffer()),
      };
    } finally {
      await agent.close();
    }
  };

  const completed = async (id: string, as = client) => {
    let job: any;
    await until(
      `export ${id} completed`,
      async () => {
        job = (await as.get(`/v1/exports/${id}`)).body;
        return job.status === 'completed' || job.status === 'failed';
      },
      SETTLE_DEADLINE_MS,
    );
    expect(job.status).toBe('completed');
    return job;
  };

  const listed = async (filters: Record<string, string>) => {
    const query = new URLSearchParams({ ...filters, limit: '100' }).toString();
    const page = await client.get(`/v1/calls?${query}`);
    expect(page.status).toBe(200);
    expect(page.body.pagination.has_more).toBe(false);
    return page.body.calls as Record<string, unknown>[];
  };

  beforeAll(async () => {
    await receiver.start();
    app = await startTestApp({
      EXPORT_POLL_INTERVAL_MS: '100',
      EXPORT_RETENTION_HOURS: '2',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_CA_FILE: receiver.caFile,
    });
    const own = await provisionAccountDirect(app, ['full']);
    client = own.client;
    const issued = await app.admin.post('/v1/api-keys', {
      account_id: own.accountId,
      name: 'reader',
      scopes: ['read'],
    });
    expect(issued.status).toBe(201);
    readKey = issued.body.key;
    reader = client.withKey(readKey);
    other = (await provisionAccountDirect(app, ['full'], 'Other')).client;
    trunkId = (await client.post('/v1/trunks', trunkBody())).body.id;
    const records = Array.from({ length: 24 }, (_, i) => record(`call_exp${i}`, now - (i * 20 + 5) * MINUTE));
    // Outside the range: never exported.
    records.push(record('call_expold1', now - 30 * HOUR));
    const ingest = async (batch: object[]) => {
      const response = await client.call('POST', '/v1/ingest/calls', {
        rawBody: batch.map((r) => JSON.stringify(r)).join('\n'),
        headers: { 'content-type': 'application/x-ndjson' },
      });
      expect(response.body).toEqual({ accepted: batch.length, rejected: [] });
    };
    await ingest(records);
    // A second version of one call: the export, like the list, has its latest version only.
    await ingest([record('call_exp3', now - 65 * MINUTE, { status: 'disconnected', ai_latency_ms: 999 })]);
    engine = await EmbeddedClickHouse.open({ dir: join(scratch, 'reader') });
    hook = '/exports';
    const endpoint = await client.post('/v1/webhook-endpoints', {
      url: receiver.script(hook, [200]),
      event_types: ['export.completed'],
    });
    expect(endpoint.status).toBe(201);
  });
  afterAll(async () => {
    await engine?.close();
    await app?.stop();
    await receiver.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('exports NDJSON with exactly the rows GET /v1/calls lists for the same filters, in the same order', async () => {
    const created = await client.post('/v1/exports', { format: 'ndjson', ...range });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^exp_/),
      status: 'pending',
      format: 'ndjson',
      filters: { ...range, trunk_id: null, status: null, from: null, to: null, direction: null },
      rows: null,
      file_url: null,
    });
    const job = await completed(created.body.id);
    const calls = await listed(range);
    expect(calls.length).toBe(24);
    expect(calls.find((c) => c.id === 'call_exp3')).toMatchObject({ status: 'disconnected', ai_latency_ms: 999 });
    expect(job).toMatchObject({ rows: 24, file_url: `/v1/exports/${job.id}/file` });
    const file = await download(job.file_url, readKey);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${job.id}.ndjson"`);
    expect(file.bytes.length).toBe(job.bytes);
    const rows = file.bytes
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rows).toEqual(calls);
    expect(rows.map((r) => Object.keys(r))).toEqual(calls.map((c) => Object.keys(c)));
    // The export.completed webhook says the same as the job.
    await receiver.waitFor((all) => all.some((r) => r.json.data.id === job.id), SETTLE_DEADLINE_MS, 'export.completed');
    const delivered = receiver.on(hook).find((r) => r.json.data.id === job.id)!;
    expect(delivered.json.type).toBe('export.completed');
    const { id, status, format, rows: count, bytes, file_url, completed_at, expires_at } = job;
    expect(delivered.json.data).toEqual({ id, status, format, rows: count, bytes, file_url, completed_at, expires_at });
  });

  it('exports CSV with the list filters (status, direction, trunk) applied', async () => {
    const filters = { ...range, status: 'connected', direction: 'inbound', trunk_id: trunkId };
    const created = await client.post('/v1/exports', { format: 'csv', ...filters });
    expect(created.status).toBe(202);
    const job = await completed(created.body.id);
    const calls = await listed(filters);
    expect(calls.length).toBeGreaterThan(0);
    expect(job.rows).toBe(calls.length);
    const file = await download(job.file_url, readKey);
    expect(file.headers['content-type']).toMatch(/^text\/csv/);
    expect(parseCsv(file.bytes.toString('utf8'))).toEqual(calls);
  });

  it('exports Parquet that reads back (with ClickHouse) as the listed rows, times as timestamps', async () => {
    const filters = { ...range, from: '+14155550100' };
    const created = await client.post('/v1/exports', { format: 'parquet', ...filters });
    const job = await completed(created.body.id);
    const file = await download(job.file_url, readKey);
    expect(file.headers['content-type']).toBe('application/vnd.apache.parquet');
    const path = join(scratch, 'calls.parquet');
    writeFileSync(path, file.bytes);
    const [types] = await engine.query<{ start: string; mos: string }>(
      'SELECT toTypeName(start_time) AS start, toTypeName(mos) AS mos FROM file({path:String}, Parquet) LIMIT 1',
      { path },
    );
    expect(types).toEqual({
      start: expect.stringMatching(/^Nullable\(DateTime64\(3|^DateTime64\(3/),
      mos: 'Nullable(Float64)',
    });
    const rows = await engine.query(`SELECT * FROM file({path:String}, Parquet)`, { path });
    expect(rows).toEqual(await listed(filters));
  });

  it('refuses bad export parameters with 400 and the parameter at fault', async () => {
    await refused(client.post('/v1/exports', { ...range }), 400, 'missing_required_field', 'format');
    await refused(client.post('/v1/exports', { format: 'xml' }), 400, 'missing_required_field', 'format');
    await refused(
      client.post('/v1/exports', { format: 'csv', start_date: 'yesterday' }),
      400,
      'missing_required_field',
      'start_date',
    );
    await refused(
      client.post('/v1/exports', { format: 'csv', status: 'ringing' }),
      400,
      'missing_required_field',
      'status',
    );
    await refused(client.post('/v1/exports', { format: 'csv', limit: 5 }), 400, 'missing_required_field', 'limit');
    await refused(
      client.post('/v1/exports', { format: 'csv', start_date: '2026-02-02', end_date: '2026-02-01' }),
      400,
      'invalid_params',
      'end_date',
    );
    await refused(
      client.post('/v1/exports', { format: 'csv', start_date: '2024-01-01', end_date: '2026-01-01' }),
      400,
      'invalid_params',
      'start_date',
    );
  });

  it("lets a read key follow and download but not create; another account's export is not found", async () => {
    await refused(reader.post('/v1/exports', { format: 'csv' }), 403, 'forbidden');
    const job = await completed((await client.post('/v1/exports', { format: 'csv', ...range })).body.id);
    expect((await reader.get(`/v1/exports/${job.id}`)).body).toEqual(job);
    await refused(other.get(`/v1/exports/${job.id}`), 404, 'not_found');
    await refused(other.get(`/v1/exports/${job.id}/file`), 404, 'not_found');
    await refused(client.get('/v1/exports/exp_doesnotexist/file'), 404, 'not_found');
    const theirs = await completed((await other.post('/v1/exports', { format: 'ndjson' })).body.id, other);
    expect(theirs.rows).toBe(0);
    expect((await download(theirs.file_url, readKey)).status).toBe(404);
  });

  it('deletes the file after its retention; the file then answers 410 gone', async () => {
    const job = await completed((await client.post('/v1/exports', { format: 'ndjson', ...range })).body.id);
    const onDisk = join(app.config.exportDir, `${job.id}.ndjson`);
    expect(existsSync(onDisk)).toBe(true);
    expect(Date.parse(job.expires_at) - Date.parse(job.completed_at)).toBe(2 * HOUR);
    app.clock.advance(2 * HOUR + MINUTE);
    await until(
      'export expired',
      async () => (await client.get(`/v1/exports/${job.id}`)).body.status === 'expired',
      SETTLE_DEADLINE_MS,
    );
    expect(existsSync(onDisk)).toBe(false);
    await refused(client.get(`/v1/exports/${job.id}/file`), 410, 'gone');
  });
});

describe('exports: a job whose runner stopped mid-run', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'exports-crash-'));
  let app: TestApp | null = null;
  afterAll(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is run again by the next runner after a restart, not left running', async () => {
    // A runner that never comes round on its own: the job is started by hand, as a runner that
    // then died would have left it.
    app = await startTestApp({ EXPORT_POLL_INTERVAL_MS: '60000' }, { dataDir, keepData: true });
    const adminKey = app.adminKey;
    const { client, key } = await provisionAccountDirect(app, ['full']);
    const created = await client.post('/v1/exports', { format: 'csv' });
    expect(created.body.status).toBe('pending');
    const bus = app.running.app.get(CommandBus);
    await bus.execute(
      new DecideExport(
        created.body.id,
        { type: 'StartExport', data: { at: new Date(), maxAttempts: 3 } },
        { actor: 'test' },
      ),
    );
    expect((await client.get(`/v1/exports/${created.body.id}`)).body.status).toBe('running');
    await app.stop();
    app = null;

    app = await startTestApp({ EXPORT_POLL_INTERVAL_MS: '100' }, { dataDir, keepData: true, adminKey });
    const again = app.admin.withKey(key);
    let job: any;
    await until(
      'the interrupted export finished',
      async () => {
        job = (await again.get(`/v1/exports/${created.body.id}`)).body;
        return job.status === 'completed' || job.status === 'failed';
      },
      SETTLE_DEADLINE_MS,
    );
    expect(job).toMatchObject({ status: 'completed', rows: 0 });
    expect(existsSync(join(app.config.exportDir, `${job.id}.csv`))).toBe(true);
  });
});
