import { table } from '../lib/report';
import { Percentiles } from '../lib/percentiles';
import type { Host } from '../lib/machine';
import type { PageLoad } from './console-load';
import type { ConsoleBenchOptions } from './console-options';

export interface ConsoleReport {
  host: Host;
  chromium: string;
  calls: number;
  loadMs: number;
  url: string;
  bundle: { files: { name: string; bytes: number; gzipBytes: number; brotliBytes: number }[] };
  cold: PageLoad[];
  warm: PageLoad[];
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function formatConsoleReport(r: ConsoleReport, options: ConsoleBenchOptions): string {
  const row = (name: string, loads: PageLoad[]) => {
    const drawn = Percentiles.of(loads.map((l) => l.drawnMs));
    const complete = Percentiles.of(loads.map((l) => l.completeMs));
    const median = (pick: (l: PageLoad) => number) => Percentiles.of(loads.map(pick), 1).at(50);
    return [
      name,
      drawn.at(50).toFixed(0),
      drawn.at(95).toFixed(0),
      complete.at(50).toFixed(0),
      complete.at(95).toFixed(0),
      kb(median((l) => l.assetBytes)),
      kb(median((l) => l.apiBytes)),
      String(median((l) => l.apiRequests)),
    ];
  };
  const p95 = Percentiles.of(r.cold.map((l) => l.drawnMs)).at(95);
  return [
    `console overview: navigation to every chart drawn, Chromium ${r.chromium}`,
    `host: ${r.host.cores} × ${r.host.cpu}, ${r.host.memoryGiB} GiB, node ${r.host.node}, load average ${r.host.loadAverage.toFixed(2)}`,
    `data: ${r.calls.toLocaleString('en-US')} calls over ${options.days} days, ${options.trunks} trunks (loaded in ${(r.loadMs / 1000).toFixed(1)} s); page ${r.url}`,
    '',
    ...table([
      [
        'loads (n)',
        'drawn p50 ms',
        'drawn p95 ms',
        'complete p50 ms',
        'complete p95 ms',
        'page+assets',
        'API answers',
        'API requests',
      ],
      row(`cold cache (${r.cold.length})`, r.cold),
      row(`warm cache (${r.warm.length})`, r.warm),
    ]),
    '',
    `cold p95 to charts drawn ${p95.toFixed(0)} ms (target <= 1500 ms: ${p95 <= 1500 ? 'meets target' : 'BELOW target'})`,
    'drawn: figures, calls and latency charts (average and per-bucket p50/p95/p99); complete: with the busiest trunks',
    'bytes are encoded transfer sizes with headers (brotli where the browser accepts it)',
    '',
    ...table([
      ['built file', 'raw', 'gzip -9', 'brotli (served)'],
      ...r.bundle.files.map((f) => [f.name, kb(f.bytes), kb(f.gzipBytes), kb(f.brotliBytes)]),
    ]),
    '',
  ].join('\n');
}
