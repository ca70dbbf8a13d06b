import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { Percentiles } from './percentiles';

export interface IngestTarget {
  origin: string;
  /** The server's certificate (PEM): verified, not skipped. */
  ca: string;
  key: string;
}

export interface NdjsonBody {
  body: Buffer;
  count: number;
}

export interface SendFigures {
  /** First send to last 200. */
  seconds: number;
  records: number;
  requests: number;
  /** 503s answered with Retry-After and sent again. */
  retries: number;
  p50Ms: number;
  p99Ms: number;
}

const PATH = '/v1/ingest/calls';
const MAX_RETRIES_PER_BODY = 50;

/**
 * `senders` loops over one keep-alive undici pool of as many connections, each taking the next
 * body when its last one was answered. Every answer must be 200 with every record accepted;
 * anything else stops the run, except 503, which is retried after its Retry-After.
 */
export async function sendAll(target: IngestTarget, bodies: NdjsonBody[], senders: number): Promise<SendFigures> {
  const pool = new Pool(target.origin, { connections: senders, pipelining: 1, connect: { ca: target.ca } });
  const latencies = new Percentiles();
  let next = 0;
  let retries = 0;
  let failure: unknown = null;
  const sender = async () => {
    while (failure === null && next < bodies.length) {
      const body = bodies[next++];
      try {
        retries += await post(pool, target.key, body, latencies);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  try {
    const started = performance.now();
    await Promise.all(Array.from({ length: senders }, sender));
    const seconds = (performance.now() - started) / 1000;
    if (failure !== null) throw failure;
    const records = bodies.reduce((sum, b) => sum + b.count, 0);
    return {
      seconds,
      records,
      requests: bodies.length,
      retries,
      p50Ms: latencies.at(50),
      p99Ms: latencies.at(99),
    };
  } finally {
    await pool.close();
  }
}

/** One body until it is stored; returns how many 503s it took. */
async function post(pool: Pool, key: string, body: NdjsonBody, latencies: Percentiles): Promise<number> {
  for (let retries = 0; ; retries++) {
    const started = performance.now();
    const response = await pool.request({
      path: PATH,
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson', accept: 'application/json' },
      body: body.body,
    });
    const text = await response.body.text();
    if (response.statusCode === 503 && retries < MAX_RETRIES_PER_BODY) {
      await sleep(retryAfterMs(response.headers['retry-after']));
      continue;
    }
    latencies.record(performance.now() - started);
    if (response.statusCode !== 200) throw new Error(`POST ${PATH}: HTTP ${response.statusCode} ${text.slice(0, 300)}`);
    const result = JSON.parse(text) as { accepted: number; rejected: unknown[] };
    if (result.accepted !== body.count || result.rejected.length > 0) {
      throw new Error(
        `POST ${PATH}: accepted ${result.accepted} of ${body.count}; first rejections ${JSON.stringify(result.rejected.slice(0, 3))}`,
      );
    }
    return retries;
  }
}

function retryAfterMs(header: string | string[] | undefined): number {
  const seconds = Number(Array.isArray(header) ? header[0] : header);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000;
}
