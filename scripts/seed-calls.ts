import { randomBytes, randomInt } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { rootCertificates } from 'node:tls';
import { parseArgs } from 'node:util';
import { randomBase62 } from '../src/shared/ids';
import { generateCalls, mix32, ndjsonBatches, NdjsonBatch } from '../bench/lib/calls/call-generator';

const USAGE = `usage: npm run seed:calls -- [options]
  --calls N          records to generate (default 10000)
  --days D           spread over the last D days, ending now (default 7)
  --trunks T         trunks to create when --trunk-ids is not given (default 5)
  --seed S           generator seed (default random; printed, so a run can be repeated)
  --url U            service origin (default https://localhost:8443)
  --key K            ingest key (or env TRUNKLINE_INGEST_KEY)
  --trunk-ids a,b,c  existing trunks to attribute the calls to
  --admin-key K      admin key (or env TRUNKLINE_ADMIN_KEY): creates account, keys and trunks as needed
  --account-id A     account to use with --admin-key instead of creating one
  --concurrency C    requests in flight (default 4)
  --batch B          records per request, at most 10000 (default 1000)
  --ca FILE          CA certificate to trust (default <DATA_DIR or ./.data>/tls/cert.pem when it exists)
  --out FILE         write NDJSON to FILE (or - for stdout) instead of sending`;

interface SeedOptions {
  calls: number;
  days: number;
  trunks: number;
  seed: number;
  url: URL;
  key?: string;
  trunkIds?: string[];
  adminKey?: string;
  accountId?: string;
  concurrency: number;
  batch: number;
  ca?: string;
  out?: string;
}

class UsageError extends Error {}

function parseOptions(argv: string[]): SeedOptions {
  const names = [
    'calls',
    'days',
    'trunks',
    'seed',
    'url',
    'key',
    'trunk-ids',
    'admin-key',
    'account-id',
    'concurrency',
    'batch',
    'ca',
    'out',
  ];
  const options = {
    ...Object.fromEntries(names.map((n) => [n, { type: 'string' as const }])),
    help: { type: 'boolean' as const, short: 'h' },
  };
  const { values } = parseArgs({ args: argv, strict: true, options });
  if (values.help) throw new UsageError(''); // an empty message: print the usage and succeed
  const v = values as Record<string, string | undefined>;
  const num = (name: string, fallback: number, min: number, max: number, integer = true): number => {
    const value = v[name] === undefined ? fallback : Number(v[name]);
    if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value)))
      throw new UsageError(`--${name} must be ${integer ? 'an integer' : 'a number'} in ${min}..${max}`);
    return value;
  };
  // The certificate the service generates for itself when it has none configured.
  const generatedCa = join(process.env.DATA_DIR ?? './.data', 'tls', 'cert.pem');
  const ca = v.ca ?? (existsSync(generatedCa) ? generatedCa : undefined);
  let url: URL;
  try {
    url = new URL(v.url ?? 'https://localhost:8443');
  } catch {
    throw new UsageError('--url must be an absolute URL');
  }
  return {
    calls: num('calls', 10_000, 0, 2 ** 48),
    days: num('days', 7, 0.001, 3650, false),
    trunks: num('trunks', 5, 1, 1000),
    seed: num('seed', randomInt(2 ** 31), 0, Number.MAX_SAFE_INTEGER),
    url,
    key: v.key ?? process.env.TRUNKLINE_INGEST_KEY,
    adminKey: v['admin-key'] ?? process.env.TRUNKLINE_ADMIN_KEY,
    trunkIds: v['trunk-ids']
      ?.split(',')
      .map((id) => id.trim())
      .filter(Boolean),
    accountId: v['account-id'],
    concurrency: num('concurrency', 4, 1, 256),
    batch: num('batch', 1000, 1, 10_000),
    ca: ca ? readFileSync(ca, 'utf8') : undefined,
    out: v.out,
  };
}

// ---- HTTP ----
interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}
const MAX_ATTEMPTS = 10;
/** Connection failures worth another try (a restarting server); TLS and DNS failures are not. */
const TRANSIENT = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ECONNABORTED']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A small HTTPS client on node:https (no dependency), keep-alive, one socket per request in flight. */
class Api {
  private readonly agent: http.Agent;
  /** Keys just issued reach the auth read model a moment later: a 401 for them is retried until then. */
  private readonly fresh = new Map<string, number>();

  constructor(
    private readonly origin: URL,
    concurrency: number,
    ca: string | undefined,
  ) {
    const options = { keepAlive: true, maxSockets: concurrency + 1 };
    this.agent =
      origin.protocol === 'http:'
        ? new http.Agent(options)
        : new https.Agent({ ...options, ...(ca ? { ca: [...rootCertificates, ca] } : {}) });
  }

  markFresh(key: string): void {
    this.fresh.set(key, Date.now() + 15_000);
  }

  /** Retries 429/503 (honouring Retry-After), network errors, and 401 on fresh keys; other answers go back to the caller. */
  async send(
    method: string,
    path: string,
    key: string,
    body?: string,
    contentType = 'application/json',
  ): Promise<Reply> {
    for (let attempt = 1; ; attempt++) {
      const reply = await this.once(method, path, key, body, contentType).catch((error: NodeJS.ErrnoException) => {
        const transient = TRANSIENT.has(error.code ?? '') || error.message === 'timed out';
        if (!transient || attempt >= MAX_ATTEMPTS)
          throw new Error(
            `${method} ${path}: ${error.message}${error.code?.includes('CERT') || error.code?.includes('SIGNATURE') ? ' (trust the server certificate with --ca FILE)' : ''}`,
          );
        process.stderr.write(`  ${method} ${path}: ${error.code ?? error.message}, retrying\n`);
        return null;
      });
      const retryable =
        reply === null ||
        reply.status === 429 ||
        reply.status === 503 ||
        (reply.status === 401 && (this.fresh.get(key) ?? 0) > Date.now());
      if (!retryable || attempt >= MAX_ATTEMPTS) return reply as Reply;
      await sleep(retryDelay(reply, attempt));
    }
  }

  async json<T>(method: string, path: string, key: string, payload: unknown): Promise<T> {
    const reply = await this.send(method, path, key, JSON.stringify(payload));
    if (reply.status < 200 || reply.status > 299) throw new Error(`${method} ${path}: ${describe(reply)}`);
    return JSON.parse(reply.body) as T;
  }

  close(): void {
    this.agent.destroy();
  }

  private once(
    method: string,
    path: string,
    key: string,
    body: string | undefined,
    contentType: string,
  ): Promise<Reply> {
    const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${key}`, accept: 'application/json' };
    if (body !== undefined)
      Object.assign(headers, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
    const send = this.origin.protocol === 'http:' ? http.request : https.request;
    return new Promise((resolve, reject) => {
      const req = send(new URL(path, this.origin), { method, headers, agent: this.agent, timeout: 120_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end(body);
    });
  }
}

/** Retry-After in seconds or as an HTTP date; otherwise exponential backoff from 250 ms, at most 30 s. */
function retryDelay(reply: Reply | null, attempt: number): number {
  const header = reply?.headers['retry-after'];
  if (typeof header === 'string') {
    const seconds = Number(header);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
    if (Number.isFinite(ms)) return Math.min(60_000, Math.max(100, ms));
  }
  return Math.min(30_000, 250 * 2 ** (attempt - 1));
}

function describe(reply: Reply): string {
  try {
    const { error } = JSON.parse(reply.body) as { error?: { code?: string; message?: string } };
    if (error) return `HTTP ${reply.status} ${error.code}: ${error.message}`;
  } catch {
    /* not JSON: show the start of the text */
  }
  return `HTTP ${reply.status} ${reply.body.slice(0, 200)}`;
}

// ---- Setup: account, keys and trunks through the public API ----
const PROVIDERS = ['openai', 'elevenlabs', 'custom'] as const;

/** Provider wiring in the shapes the offline (PROVIDER_VALIDATION=format) validator accepts; a live validator will refuse them. */
function trunkRequest(tag: string, i: number): Record<string, string> {
  const provider = PROVIDERS[i % PROVIDERS.length];
  const base = {
    name: `Seed ${tag} #${i + 1}`,
    ai_provider: provider,
    sip_username: `seed-${tag}-${i + 1}`,
    sip_password: randomBase62(24),
  };
  if (provider === 'openai') return { ...base, openai_api_key: `sk-proj-${randomBase62(40)}` };
  if (provider === 'elevenlabs')
    return {
      ...base,
      elevenlabs_api_key: randomBytes(16).toString('hex'),
      elevenlabs_agent_id: `agent_${randomBase62(20)}`,
    };
  return { ...base, custom_endpoint: `wss://agent.example.com/voice/${tag}-${i + 1}` };
}

async function issueKey(api: Api, adminKey: string, accountId: string, scope: 'full' | 'ingest'): Promise<string> {
  const { key } = await api.json<{ key: string }>('POST', '/v1/api-keys', adminKey, {
    account_id: accountId,
    name: `seed:calls ${scope}`,
    scopes: [scope],
  });
  api.markFresh(key);
  process.stderr.write(`issued ${scope} key for ${accountId} (shown once): ${key}\n`);
  return key;
}

async function prepare(api: Api, opts: SeedOptions): Promise<{ key: string; trunkIds: string[] }> {
  const { adminKey } = opts;
  if (opts.trunkIds?.length) {
    if (opts.key) return { key: opts.key, trunkIds: opts.trunkIds };
    if (!adminKey || !opts.accountId)
      throw new UsageError('with --trunk-ids, give --key (or TRUNKLINE_INGEST_KEY), or --admin-key with --account-id');
    return { key: await issueKey(api, adminKey, opts.accountId, 'ingest'), trunkIds: opts.trunkIds };
  }
  if (!adminKey)
    throw new UsageError('give --trunk-ids and --key, or --admin-key (or TRUNKLINE_ADMIN_KEY) to create trunks');
  const tag = randomBase62(8);
  const accountId =
    opts.accountId ?? (await api.json<{ id: string }>('POST', '/v1/accounts', adminKey, { name: `Seed ${tag}` })).id;
  process.stderr.write(`account ${accountId}\n`);
  const fullKey = await issueKey(api, adminKey, accountId, 'full');
  const key = opts.key ?? (await issueKey(api, adminKey, accountId, 'ingest'));
  const trunkIds: string[] = [];
  for (let i = 0; i < opts.trunks; i++) {
    const trunk = await api.json<{ id: string; ai_provider: string }>(
      'POST',
      '/v1/trunks',
      fullKey,
      trunkRequest(tag, i),
    );
    process.stderr.write(`created trunk ${trunk.id} (${trunk.ai_provider})\n`);
    trunkIds.push(trunk.id);
  }
  return { key, trunkIds };
}

// ---- Sending ----
interface Rejection {
  index: number;
  id?: string;
  code: string;
  message: string;
}
interface Tally {
  sent: number;
  accepted: number;
  rejected: number;
  byCode: Map<string, number>;
  samples: Rejection[];
}

async function postBatch(api: Api, key: string, batch: NdjsonBatch, tally: Tally): Promise<void> {
  const reply = await api.send('POST', '/v1/ingest/calls', key, batch.body, 'application/x-ndjson');
  if (reply.status !== 200) throw new Error(`POST /v1/ingest/calls: ${describe(reply)}`);
  const result = JSON.parse(reply.body) as { accepted: number; rejected: Rejection[] };
  tally.sent += batch.count;
  tally.accepted += result.accepted;
  tally.rejected += result.rejected.length;
  for (const rejection of result.rejected) {
    tally.byCode.set(rejection.code, (tally.byCode.get(rejection.code) ?? 0) + 1);
    if (tally.samples.length < 5) tally.samples.push(rejection);
  }
}

/** `concurrency` workers pull batches from one lazy iterator; the first hard failure stops them all. */
async function sendAll(
  api: Api,
  key: string,
  batches: Iterator<NdjsonBatch>,
  concurrency: number,
  tally: Tally,
): Promise<void> {
  let failure: unknown = null;
  const worker = async (): Promise<void> => {
    for (let next = batches.next(); !next.done && failure === null; next = batches.next()) {
      await postBatch(api, key, next.value, tally).catch((error: unknown) => {
        failure ??= error;
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (failure !== null) throw failure;
}

async function writeAll(out: string, batches: Iterable<NdjsonBatch>): Promise<{ count: number; bytes: number }> {
  const stream: NodeJS.WritableStream = out === '-' ? process.stdout : createWriteStream(out);
  let count = 0;
  let bytes = 0;
  for (const batch of batches) {
    count += batch.count;
    bytes += batch.bytes;
    // once() also rejects when the stream emits 'error' (a missing directory, a closed pipe).
    if (!stream.write(batch.body)) await once(stream, 'drain');
  }
  if (out !== '-') {
    stream.end();
    await finished(stream);
  }
  return { count, bytes };
}

/** Stand-in trunk ids for --out without --trunk-ids: stable for a seed. */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const fakeTrunkIds = (seed: number, n: number): string[] =>
  Array.from(
    { length: n },
    (_, k) => `conn_${Array.from({ length: 24 }, (_, c) => BASE62[mix32(seed + k * 977 + c * 7919) % 62]).join('')}`,
  );

const rate = (n: number, ms: number): string => Math.round((n * 1000) / Math.max(ms, 1)).toLocaleString('en-US');

function summary(tally: Tally, ms: number): string {
  const lines = [
    `sent ${tally.sent} records in ${(ms / 1000).toFixed(1)} s (${rate(tally.sent, ms)} records/s)`,
    `accepted ${tally.accepted}, rejected ${tally.rejected}`,
  ];
  if (tally.rejected > 0)
    lines.push(`rejected by code: ${[...tally.byCode].map(([code, n]) => `${code} ${n}`).join(', ')}`);
  for (const r of tally.samples) lines.push(`  #${r.index} ${r.id ?? '-'}: ${r.code}: ${r.message}`);
  return `${lines.join('\n')}\n`;
}

async function writeCalls(opts: SeedOptions, from: Date, to: Date): Promise<void> {
  const started = Date.now();
  const trunkIds = opts.trunkIds?.length ? opts.trunkIds : fakeTrunkIds(opts.seed, opts.trunks);
  const { count, bytes } = await writeAll(
    opts.out!,
    ndjsonBatches(generateCalls({ count: opts.calls, trunkIds, from, to, seed: opts.seed }), opts.batch),
  );
  const ms = Date.now() - started;
  process.stderr.write(
    `wrote ${count} records (${(bytes / 1e6).toFixed(1)} MB) in ${(ms / 1000).toFixed(1)} s (${rate(count, ms)} records/s), seed ${opts.seed}\n`,
  );
}

async function sendCalls(opts: SeedOptions, from: Date, to: Date): Promise<void> {
  const api = new Api(opts.url, opts.concurrency, opts.ca);
  const tally: Tally = { sent: 0, accepted: 0, rejected: 0, byCode: new Map(), samples: [] };
  try {
    const { key, trunkIds } = await prepare(api, opts);
    process.stderr.write(
      `sending ${opts.calls} calls over ${opts.days} days to ${trunkIds.length} trunks, seed ${opts.seed}\n`,
    );
    const started = Date.now();
    const progress = setInterval(
      () =>
        process.stderr.write(
          `  ${tally.sent}/${opts.calls} sent, ${tally.rejected} rejected, ${rate(tally.sent, Date.now() - started)} records/s\n`,
        ),
      2000,
    );
    try {
      const batches = ndjsonBatches(
        generateCalls({ count: opts.calls, trunkIds, from, to, seed: opts.seed }),
        opts.batch,
      );
      await sendAll(api, key, batches, opts.concurrency, tally);
    } finally {
      clearInterval(progress);
      process.stdout.write(summary(tally, Date.now() - started));
    }
  } finally {
    api.close();
  }
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  const now = Date.now();
  const from = new Date(now - opts.days * 86_400_000);
  await (opts.out === undefined ? sendCalls(opts, from, new Date(now)) : writeCalls(opts, from, new Date(now)));
}

main().catch((error: unknown) => {
  // `--out - | head` closes the pipe early: that is the reader's choice, not a failure.
  if (error instanceof Error && 'code' in error && error.code === 'EPIPE') process.exit(0);
  if (
    error instanceof UsageError ||
    (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
  ) {
    if (error.message === '') {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`seed:calls failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
