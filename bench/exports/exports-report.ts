import type { ExportFileFormat } from '../../src/exports/domain/export.events';
import type { Host } from '../lib/machine';
import type { WindowRss } from './exports-rss';

export interface ExportFigures {
  format: ExportFileFormat;
  rows: number;
  bytes: number;
  /** POST /v1/exports to the job seen completed (polled every 100 ms). */
  jobMs: number;
  /** GET /v1/exports/{id}/file streamed to a file by the bench. */
  downloadMs: number;
  /** The engine writing the same statement's rows to a file directly. */
  baselineMs: number;
  baselineBytes: number;
  rss: WindowRss;
}

export interface ExportsReport {
  machine: Host & { chdb: string; loadAverageBefore: number; loadAverageAtEnd: number };
  calls: number;
  loadMs: number;
  figures: ExportFigures[];
}

const MiB = 2 ** 20;
const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function formatExportsReport(report: ExportsReport): string {
  const m = report.machine;
  const lines = [
    `exports of ${report.calls.toLocaleString('en-US')} calls (loaded in ${sec(report.loadMs)})`,
    `machine: ${m.cores} × ${m.cpu}, ${m.memoryGiB} GiB RAM, node ${m.node}, chDB ${m.chdb}; load average ${m.loadAverage.toFixed(2)} at the start, ${m.loadAverageBefore.toFixed(2)} before the exports, ${m.loadAverageAtEnd.toFixed(2)} at the end`,
    '',
    'format   rows        file size   job (API)  baseline  ratio  download   app RSS start→peak   chDB RSS start→peak',
  ];
  for (const f of report.figures) {
    const [app, ...engine] = f.rss.processes;
    const chdb = engine.find((p) => /chdb/.test(p.name)) ?? engine[0];
    const span = (p?: { startBytes: number; peakBytes: number }) =>
      p ? `${mib(p.startBytes)} → ${mib(p.peakBytes)}` : 'n/a';
    lines.push(
      [
        f.format.padEnd(8),
        f.rows.toLocaleString('en-US').padEnd(11),
        mib(f.bytes).padEnd(11),
        sec(f.jobMs).padEnd(10),
        sec(f.baselineMs).padEnd(9),
        `${(f.jobMs / f.baselineMs).toFixed(2)}x`.padEnd(6),
        sec(f.downloadMs).padEnd(10),
        span(app).padEnd(20),
        span(chdb),
      ].join(' '),
    );
    if (f.baselineBytes !== f.bytes) lines.push(`  note: the baseline wrote ${f.baselineBytes} bytes`);
  }
  lines.push(
    '',
    'job: POST /v1/exports until GET /v1/exports/{id} shows it completed (polled every 100 ms, runner polling every 100 ms);',
    'baseline: the engine writing the same statement to a file (exportToFile) with no job, queue or HTTP;',
    'RSS: sampled every 100 ms over the job and the download, per process.',
    '',
  );
  return lines.join('\n');
}
