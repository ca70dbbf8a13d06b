import { createReadStream, createWriteStream } from 'node:fs';
import { request } from 'node:https';
import { createInterface } from 'node:readline';
import { verifyExport } from '../../src/audit/verify/export-verifier';
import { TreeRss } from '../lib/process-tree';

export interface ExportFigures {
  events: number;
  bytes: number;
  seconds: number;
  eventsPerSecond: number;
  /** The app's resident memory when the export started, and its peak during it (100 ms samples). */
  rssStartMiB: number | null;
  rssPeakMiB: number | null;
  rssGrowthMiB: number | null;
}

export interface VerifyFigures {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  verdict: string;
}

const MiB = 2 ** 20;
const round1 = (n: number) => Math.round(n * 10) / 10;

/** Streams GET /v1/audit-events/export into `file`, sampling the app's memory all along. */
export async function measureExport(
  target: { origin: string; ca: string; key: string; appPid: number },
  file: string,
): Promise<ExportFigures> {
  const rss = new TreeRss(target.appPid);
  const started = process.hrtime.bigint();
  const { bytes, lines } = await new Promise<{ bytes: number; lines: number }>((resolve, reject) => {
    const req = request(
      `${target.origin}/v1/audit-events/export`,
      { ca: target.ca, headers: { authorization: `Bearer ${target.key}`, accept: 'application/x-ndjson' } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`export answered ${res.statusCode}`));
        const out = createWriteStream(file);
        let count = { bytes: 0, lines: 0 };
        res.on('data', (chunk: Buffer) => {
          count = { bytes: count.bytes + chunk.length, lines: count.lines + countNewlines(chunk) };
        });
        res.pipe(out);
        out.on('finish', () => resolve(count));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const memory = rss.stop();
  const events = lines - 2; // the header and the end record
  const mib = (n: number | undefined) => (n === undefined ? null : round1(n / MiB));
  return {
    events,
    bytes,
    seconds: round1(seconds),
    eventsPerSecond: Math.round(events / seconds),
    rssStartMiB: mib(memory?.firstBytes),
    rssPeakMiB: mib(memory?.peakBytes),
    rssGrowthMiB: memory ? round1((memory.peakBytes - memory.firstBytes) / MiB) : null,
  };
}

function countNewlines(chunk: Buffer): number {
  let n = 0;
  for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) n += 1;
  return n;
}

/** GET /v1/audit-events/verify: the service recomputes every hash and checkpoint of the account. */
export async function measureServerVerify(target: { origin: string; ca: string; key: string }): Promise<VerifyFigures> {
  const started = process.hrtime.bigint();
  const body = await new Promise<string>((resolve, reject) => {
    const req = request(
      `${target.origin}/v1/audit-events/verify`,
      { ca: target.ca, headers: { authorization: `Bearer ${target.key}` }, timeout: 3_600_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const outcome = JSON.parse(body) as { verified?: boolean; events?: number };
  if (outcome.verified !== true) throw new Error(`verify answered ${body.slice(0, 300)}`);
  const events = outcome.events ?? 0;
  return { events, seconds: round1(seconds), eventsPerSecond: Math.round(events / seconds), verdict: 'verified' };
}

/** What `npm run audit:verify -- FILE` does, timed: no service involved. */
export async function measureOfflineVerify(file: string): Promise<VerifyFigures> {
  const started = process.hrtime.bigint();
  const report = await verifyExport(createInterface({ input: createReadStream(file), crlfDelay: Infinity }));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const events = report.outcome?.events ?? 0;
  return { events, seconds: round1(seconds), eventsPerSecond: Math.round(events / seconds), verdict: report.verdict };
}
