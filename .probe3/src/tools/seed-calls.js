"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
const node_crypto_1 = require("node:crypto");
const node_events_1 = require("node:events");
const node_fs_1 = require("node:fs");
const http = __importStar(require("node:http"));
const https = __importStar(require("node:https"));
const node_path_1 = require("node:path");
const promises_1 = require("node:stream/promises");
const node_tls_1 = require("node:tls");
const node_util_1 = require("node:util");
const ids_1 = require("../shared/ids");
const call_generator_1 = require("./call-generator");
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
class UsageError extends Error {
}
function parseOptions(argv) {
    const names = ['calls', 'days', 'trunks', 'seed', 'url', 'key', 'trunk-ids', 'admin-key', 'account-id', 'concurrency', 'batch', 'ca', 'out'];
    const options = { ...Object.fromEntries(names.map((n) => [n, { type: 'string' }])), help: { type: 'boolean', short: 'h' } };
    const { values } = (0, node_util_1.parseArgs)({ args: argv, strict: true, options });
    if (values.help)
        throw new UsageError(''); // an empty message: print the usage and succeed
    const v = values;
    const num = (name, fallback, min, max, integer = true) => {
        const value = v[name] === undefined ? fallback : Number(v[name]);
        if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value)))
            throw new UsageError(`--${name} must be ${integer ? 'an integer' : 'a number'} in ${min}..${max}`);
        return value;
    };
    // The certificate the service generates for itself when it has none configured.
    const generatedCa = (0, node_path_1.join)(process.env.DATA_DIR ?? './.data', 'tls', 'cert.pem');
    const ca = v.ca ?? ((0, node_fs_1.existsSync)(generatedCa) ? generatedCa : undefined);
    let url;
    try {
        url = new URL(v.url ?? 'https://localhost:8443');
    }
    catch {
        throw new UsageError('--url must be an absolute URL');
    }
    return {
        calls: num('calls', 10_000, 0, 2 ** 48), days: num('days', 7, 0.001, 3650, false), trunks: num('trunks', 5, 1, 1000),
        seed: num('seed', (0, node_crypto_1.randomInt)(2 ** 31), 0, Number.MAX_SAFE_INTEGER), url,
        key: v.key ?? process.env.TRUNKLINE_INGEST_KEY, adminKey: v['admin-key'] ?? process.env.TRUNKLINE_ADMIN_KEY,
        trunkIds: v['trunk-ids']?.split(',').map((id) => id.trim()).filter(Boolean), accountId: v['account-id'],
        concurrency: num('concurrency', 4, 1, 256), batch: num('batch', 1000, 1, 10_000), ca: ca ? (0, node_fs_1.readFileSync)(ca, 'utf8') : undefined, out: v.out,
    };
}
const MAX_ATTEMPTS = 10;
/** Connection failures worth another try (a restarting server); TLS and DNS failures are not. */
const TRANSIENT = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ECONNABORTED']);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** A small HTTPS client on node:https (no dependency), keep-alive, one socket per request in flight. */
class Api {
    origin;
    agent;
    /** Keys just issued reach the auth read model a moment later: a 401 for them is retried until then. */
    fresh = new Map();
    constructor(origin, concurrency, ca) {
        this.origin = origin;
        const options = { keepAlive: true, maxSockets: concurrency + 1 };
        this.agent = origin.protocol === 'http:' ? new http.Agent(options) : new https.Agent({ ...options, ...(ca ? { ca: [...node_tls_1.rootCertificates, ca] } : {}) });
    }
    markFresh(key) { this.fresh.set(key, Date.now() + 15_000); }
    /** Retries 429/503 (honouring Retry-After), network errors, and 401 on fresh keys; other answers go back to the caller. */
    async send(method, path, key, body, contentType = 'application/json') {
        for (let attempt = 1;; attempt++) {
            const reply = await this.once(method, path, key, body, contentType).catch((error) => {
                const transient = TRANSIENT.has(error.code ?? '') || error.message === 'timed out';
                if (!transient || attempt >= MAX_ATTEMPTS)
                    throw new Error(`${method} ${path}: ${error.message}${error.code?.includes('CERT') || error.code?.includes('SIGNATURE') ? ' (trust the server certificate with --ca FILE)' : ''}`);
                process.stderr.write(`  ${method} ${path}: ${error.code ?? error.message}, retrying\n`);
                return null;
            });
            const retryable = reply === null || reply.status === 429 || reply.status === 503 || (reply.status === 401 && (this.fresh.get(key) ?? 0) > Date.now());
            if (!retryable || attempt >= MAX_ATTEMPTS)
                return reply;
            await sleep(retryDelay(reply, attempt));
        }
    }
    async json(method, path, key, payload) {
        const reply = await this.send(method, path, key, JSON.stringify(payload));
        if (reply.status < 200 || reply.status > 299)
            throw new Error(`${method} ${path}: ${describe(reply)}`);
        return JSON.parse(reply.body);
    }
    close() { this.agent.destroy(); }
    once(method, path, key, body, contentType) {
        const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
        if (body !== undefined)
            Object.assign(headers, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
        const send = this.origin.protocol === 'http:' ? http.request : https.request;
        return new Promise((resolve, reject) => {
            const req = send(new URL(path, this.origin), { method, headers, agent: this.agent, timeout: 120_000 }, (res) => {
                const chunks = [];
                res.on('data', (chunk) => chunks.push(chunk));
                res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
                res.on('error', reject);
            });
            req.on('timeout', () => req.destroy(new Error('timed out')));
            req.on('error', reject);
            req.end(body);
        });
    }
}
/** Retry-After in seconds or as an HTTP date; otherwise exponential backoff from 250 ms, at most 30 s. */
function retryDelay(reply, attempt) {
    const header = reply?.headers['retry-after'];
    if (typeof header === 'string') {
        const seconds = Number(header);
        const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
        if (Number.isFinite(ms))
            return Math.min(60_000, Math.max(100, ms));
    }
    return Math.min(30_000, 250 * 2 ** (attempt - 1));
}
function describe(reply) {
    try {
        const { error } = JSON.parse(reply.body);
        if (error)
            return `HTTP ${reply.status} ${error.code}: ${error.message}`;
    }
    catch { /* not JSON: show the start of the text */ }
    return `HTTP ${reply.status} ${reply.body.slice(0, 200)}`;
}
// ---- Setup: account, keys and trunks through the public API ----
const PROVIDERS = ['openai', 'elevenlabs', 'custom'];
/** Provider wiring in the shapes the offline (PROVIDER_VALIDATION=format) validator accepts; a live validator will refuse them. */
function trunkRequest(tag, i) {
    const provider = PROVIDERS[i % PROVIDERS.length];
    const base = { name: `Seed ${tag} #${i + 1}`, ai_provider: provider, sip_username: `seed-${tag}-${i + 1}`, sip_password: (0, ids_1.randomBase62)(24) };
    if (provider === 'openai')
        return { ...base, openai_api_key: `sk-proj-${(0, ids_1.randomBase62)(40)}` };
    if (provider === 'elevenlabs')
        return { ...base, elevenlabs_api_key: (0, node_crypto_1.randomBytes)(16).toString('hex'), elevenlabs_agent_id: `agent_${(0, ids_1.randomBase62)(20)}` };
    return { ...base, custom_endpoint: `wss://agent.example.com/voice/${tag}-${i + 1}` };
}
async function issueKey(api, adminKey, accountId, scope) {
    const { key } = await api.json('POST', '/v1/api-keys', adminKey, { account_id: accountId, name: `seed:calls ${scope}`, scopes: [scope] });
    api.markFresh(key);
    process.stderr.write(`issued ${scope} key for ${accountId} (shown once): ${key}\n`);
    return key;
}
async function prepare(api, opts) {
    const { adminKey } = opts;
    if (opts.trunkIds?.length) {
        if (opts.key)
            return { key: opts.key, trunkIds: opts.trunkIds };
        if (!adminKey || !opts.accountId)
            throw new UsageError('with --trunk-ids, give --key (or TRUNKLINE_INGEST_KEY), or --admin-key with --account-id');
        return { key: await issueKey(api, adminKey, opts.accountId, 'ingest'), trunkIds: opts.trunkIds };
    }
    if (!adminKey)
        throw new UsageError('give --trunk-ids and --key, or --admin-key (or TRUNKLINE_ADMIN_KEY) to create trunks');
    const tag = (0, ids_1.randomBase62)(8);
    const accountId = opts.accountId ?? (await api.json('POST', '/v1/accounts', adminKey, { name: `Seed ${tag}` })).id;
    process.stderr.write(`account ${accountId}\n`);
    const fullKey = await issueKey(api, adminKey, accountId, 'full');
    const key = opts.key ?? (await issueKey(api, adminKey, accountId, 'ingest'));
    const trunkIds = [];
    for (let i = 0; i < opts.trunks; i++) {
        const trunk = await api.json('POST', '/v1/trunks', fullKey, trunkRequest(tag, i));
        process.stderr.write(`created trunk ${trunk.id} (${trunk.ai_provider})\n`);
        trunkIds.push(trunk.id);
    }
    return { key, trunkIds };
}
async function postBatch(api, key, batch, tally) {
    const reply = await api.send('POST', '/v1/ingest/calls', key, batch.body, 'application/x-ndjson');
    if (reply.status !== 200)
        throw new Error(`POST /v1/ingest/calls: ${describe(reply)}`);
    const result = JSON.parse(reply.body);
    tally.sent += batch.count;
    tally.accepted += result.accepted;
    tally.rejected += result.rejected.length;
    for (const rejection of result.rejected) {
        tally.byCode.set(rejection.code, (tally.byCode.get(rejection.code) ?? 0) + 1);
        if (tally.samples.length < 5)
            tally.samples.push(rejection);
    }
}
/** `concurrency` workers pull batches from one lazy iterator; the first hard failure stops them all. */
async function sendAll(api, key, batches, concurrency, tally) {
    let failure = null;
    const worker = async () => {
        for (let next = batches.next(); !next.done && failure === null; next = batches.next()) {
            await postBatch(api, key, next.value, tally).catch((error) => { failure ??= error; });
        }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    if (failure !== null)
        throw failure;
}
async function writeAll(out, batches) {
    const stream = out === '-' ? process.stdout : (0, node_fs_1.createWriteStream)(out);
    let count = 0;
    let bytes = 0;
    for (const batch of batches) {
        count += batch.count;
        bytes += batch.bytes;
        // once() also rejects when the stream emits 'error' (a missing directory, a closed pipe).
        if (!stream.write(batch.body))
            await (0, node_events_1.once)(stream, 'drain');
    }
    if (out !== '-') {
        stream.end();
        await (0, promises_1.finished)(stream);
    }
    return { count, bytes };
}
/** Stand-in trunk ids for --out without --trunk-ids: stable for a seed. */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const fakeTrunkIds = (seed, n) => Array.from({ length: n }, (_, k) => `conn_${Array.from({ length: 24 }, (_, c) => BASE62[(0, call_generator_1.mix32)(seed + k * 977 + c * 7919) % 62]).join('')}`);
const rate = (n, ms) => Math.round((n * 1000) / Math.max(ms, 1)).toLocaleString('en-US');
function summary(tally, ms) {
    const lines = [`sent ${tally.sent} records in ${(ms / 1000).toFixed(1)} s (${rate(tally.sent, ms)} records/s)`, `accepted ${tally.accepted}, rejected ${tally.rejected}`];
    if (tally.rejected > 0)
        lines.push(`rejected by code: ${[...tally.byCode].map(([code, n]) => `${code} ${n}`).join(', ')}`);
    for (const r of tally.samples)
        lines.push(`  #${r.index} ${r.id ?? '-'}: ${r.code}: ${r.message}`);
    return `${lines.join('\n')}\n`;
}
async function writeCalls(opts, from, to) {
    const started = Date.now();
    const trunkIds = opts.trunkIds?.length ? opts.trunkIds : fakeTrunkIds(opts.seed, opts.trunks);
    const { count, bytes } = await writeAll(opts.out, (0, call_generator_1.ndjsonBatches)((0, call_generator_1.generateCalls)({ count: opts.calls, trunkIds, from, to, seed: opts.seed }), opts.batch));
    const ms = Date.now() - started;
    process.stderr.write(`wrote ${count} records (${(bytes / 1e6).toFixed(1)} MB) in ${(ms / 1000).toFixed(1)} s (${rate(count, ms)} records/s), seed ${opts.seed}\n`);
}
async function sendCalls(opts, from, to) {
    const api = new Api(opts.url, opts.concurrency, opts.ca);
    const tally = { sent: 0, accepted: 0, rejected: 0, byCode: new Map(), samples: [] };
    try {
        const { key, trunkIds } = await prepare(api, opts);
        process.stderr.write(`sending ${opts.calls} calls over ${opts.days} days to ${trunkIds.length} trunks, seed ${opts.seed}\n`);
        const started = Date.now();
        const progress = setInterval(() => process.stderr.write(`  ${tally.sent}/${opts.calls} sent, ${tally.rejected} rejected, ${rate(tally.sent, Date.now() - started)} records/s\n`), 2000);
        try {
            const batches = (0, call_generator_1.ndjsonBatches)((0, call_generator_1.generateCalls)({ count: opts.calls, trunkIds, from, to, seed: opts.seed }), opts.batch);
            await sendAll(api, key, batches, opts.concurrency, tally);
        }
        finally {
            clearInterval(progress);
            process.stdout.write(summary(tally, Date.now() - started));
        }
    }
    finally {
        api.close();
    }
}
async function main() {
    const opts = parseOptions(process.argv.slice(2));
    const now = Date.now();
    const from = new Date(now - opts.days * 86_400_000);
    await (opts.out === undefined ? sendCalls(opts, from, new Date(now)) : writeCalls(opts, from, new Date(now)));
}
main().catch((error) => {
    // `--out - | head` closes the pipe early: that is the reader's choice, not a failure.
    if (error instanceof Error && 'code' in error && error.code === 'EPIPE')
        process.exit(0);
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
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
//# sourceMappingURL=seed-calls.js.map