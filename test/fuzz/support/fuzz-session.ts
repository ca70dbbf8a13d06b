import fc from 'fast-check';
import { Client } from 'pg';
import { policyFor } from '../../../src/access/route-policy';
import { ApiClient } from '../../support/http-client';
import { testDatabaseUrl, uniqueSchemaName } from '../../support/postgres';
import { startTestApp, TEST_REDIS_URL, TestApp } from '../../support/test-app';
import { buildWorld } from './fuzz-seed';
import type { FuzzWorld } from './fuzz-world';
import { FuzzTally } from './fuzz-tally';
import { collectionOf, Operation, operationsOf } from './openapi-operations';
import { planArbitrary, RequestPlan } from './request-plan';
import { repaired } from './repair';
import { Exchange, ResponseChecker, Violation } from './response-check';

export interface FuzzOptions {
  requests: number;
  seed: number;
  concurrency: number;
  /** Called every `progressEvery` requests (the CLI prints a line). */
  onProgress?: (done: number) => void;
}

/**
 * The real app over HTTPS on PostgreSQL (own schema) and Redis (own namespace), with a rate limit
 * high enough that the fuzzer's keys are limited but never throttled, and format-only provider
 * checks (no network). `FUZZ_STORES=embedded` uses PGlite and memory instead.
 */
export async function startFuzzApp(): Promise<{ app: TestApp; stop: () => Promise<void> }> {
  const embedded = process.env.FUZZ_STORES === 'embedded';
  const schema = uniqueSchemaName('fuzz');
  // Webhook attempts to the (unreachable) example hosts give up fast; the standard retry schedule
  // keeps their endpoints enabled through the run, so deliveries can be replayed.
  const env: Record<string, string> = {
    RATE_LIMIT_PER_MINUTE: '10000000',
    PROVIDER_VALIDATION: 'format',
    LOG_LEVEL: 'warn',
    WEBHOOK_POLL_INTERVAL_MS: '50',
    WEBHOOK_TIMEOUT_MS: '500',
  };
  if (!embedded)
    Object.assign(env, {
      REDIS_URL: TEST_REDIS_URL,
      EVENT_STORE_URL: testDatabaseUrl(),
      EVENT_STORE_SCHEMA: schema,
      MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    });
  const app = await startTestApp(env);
  return {
    app,
    stop: async () => {
      await app.stop();
      if (!embedded) await dropSchema(schema);
    },
  };
}

async function dropSchema(schema: string): Promise<void> {
  const pg = new Client({ connectionString: testDatabaseUrl() });
  await pg.connect();
  try {
    await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await pg.end();
  }
}

/** Drives every operation of the app's own OpenAPI description in turn, `requests` times in all. */
export async function runFuzz(
  app: TestApp,
  options: FuzzOptions,
): Promise<{ tally: FuzzTally; operations: Operation[] }> {
  const document = (await app.anonymous.get('/v1/openapi.json')).body;
  const operations = operationsOf(document);
  if (operations.length === 0) throw new Error('the OpenAPI description lists no operations');
  const world = await buildWorld(app);
  const checker = new ResponseChecker(document);
  const plans = new Map(operations.map((op) => [op.key, planArbitrary(op, world)]));
  const tally = new FuzzTally(operations.map((op) => op.key));
  let next = 0;
  let reported = 0;
  const worker = async () => {
    while (next < options.requests) {
      const i = next++;
      const op = operations[i % operations.length];
      const seed = options.seed + i;
      let [plan] = fc.sample(plans.get(op.key)!, { seed, numRuns: 1 });
      for (let attempt = 0; ; attempt++) {
        const exchange = await sendOnceMore503(app.anonymous, plan, tally);
        const violations = [
          ...checker.check(op, exchange),
          ...isolationViolation(op, plan, exchange),
          ...secretEcho(plan, exchange),
        ];
        tally.record(op.key, exchange.status, violations, plan, seed);
        learn(world, op, plan, exchange);
        const repair =
          attempt < 4 && next < options.requests ? repaired(op, plan, exchange, world, seed + attempt) : null;
        if (!repair) break;
        plan = repair;
        next++;
      }
      if (options.onProgress && next - reported >= 1000) options.onProgress((reported = next));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  attachServerLogs(tally, app.logs);
  return { tally, operations };
}

/** A 5xx carries a request_id that is also in the app's error log line: the cause, for the report. */
function attachServerLogs(tally: FuzzTally, logs: string[]): void {
  for (const finding of tally.findings) {
    const id = /"request_id":"([^"]+)"/.exec(finding.violation.detail)?.[1];
    const line = id ? logs.find((l) => l.includes(id)) : undefined;
    if (line) finding.violation.detail += `\n    log: ${line.slice(0, 1200)}`;
  }
}

/**
 * A 503 with Retry-After is the service shedding load (a store command past its 1 s timeout on a
 * busy machine), not an answer to the input: the same request is sent once more after the wait,
 * and only a second 503 counts. An input that breaks a store answers 503 every time.
 */
async function sendOnceMore503(client: ApiClient, plan: RequestPlan, tally: FuzzTally): Promise<Exchange> {
  const first = await send(client, plan);
  if (first.status !== 503 || first.headers['retry-after'] === undefined) return first;
  tally.retried503++;
  await new Promise((resolve) => setTimeout(resolve, Math.min(5, Number(first.headers['retry-after']) || 1) * 1000));
  return send(client, plan);
}

async function send(client: ApiClient, plan: RequestPlan): Promise<Exchange> {
  try {
    return await client.call(plan.method, plan.url, { rawBody: plan.body, headers: plan.headers, key: null });
  } catch (error) {
    // A connection cut without an answer counts as a broken response (status 0 fails the envelope check).
    return { status: 0, headers: {}, text: `no response: ${(error as Error).message}`, body: undefined };
  }
}

/** A key of one account reaching another account's resource by id. */
function isolationViolation(op: Operation, plan: RequestPlan, exchange: Exchange): Violation[] {
  const policy = policyFor(op.path);
  if (!plan.crossAccount || policy.kind === 'public' || ['admin', 'gateway', 'platform'].includes(policy.area))
    return [];
  if (exchange.status < 200 || exchange.status >= 300) return [];
  return [
    {
      kind: 'cross-account',
      detail: `${exchange.status} for another account's resource: ${exchange.text.slice(0, 200)}`,
    },
  ];
}

/** A secret the client sent (password, provider key, webhook secret) never comes back in any answer. */
function secretEcho(plan: RequestPlan, exchange: Exchange): Violation[] {
  if (typeof plan.body !== 'string' || !plan.body.includes('"')) return [];
  const sent: string[] = [];
  const collect = (value: unknown, name = ''): void => {
    if (typeof value === 'string' && /password|api_key|secret|token/i.test(name) && value.length >= 8) sent.push(value);
    else if (typeof value === 'object' && value !== null)
      for (const [k, v] of Object.entries(value)) collect(v, Array.isArray(value) ? name : k);
  };
  try {
    collect(JSON.parse(plan.body));
  } catch {
    return [];
  }
  const echoed = sent.filter((secret) => exchange.text.includes(JSON.stringify(secret).slice(1, -1)));
  return echoed.length
    ? [
        {
          kind: 'secret-echo',
          detail: `${exchange.status} answer repeats a secret of the request: ${exchange.text.slice(0, 200)}`,
        },
      ]
    : [];
}

function learn(world: FuzzWorld, op: Operation, plan: RequestPlan, exchange: Exchange): void {
  if (op.pathParams.length === 0) {
    world.learn(op.path, plan.owner, op.method, exchange.status, exchange.body);
    return;
  }
  const last = op.path.split('/').pop()!;
  if (!last.startsWith('{')) world.learn(`sub:${last}`, plan.owner, 'GET', exchange.status, exchange.body);
  if (op.method === 'DELETE' && exchange.status >= 200 && exchange.status < 300) {
    const last = op.pathParams[op.pathParams.length - 1];
    const prefix = collectionOf(op.path, last.name);
    const id = decodeURIComponent(plan.url.slice(prefix.length + 1).split(/[/?]/)[0]);
    world.remove(id);
  }
}
