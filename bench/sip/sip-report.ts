import { median } from '../lib/percentiles';
import { ratioLine, runsLine, table } from '../lib/report';
import type { SipOptions, SipReport } from './sip-options';

export const TARGET_RATIO = 0.8;

export function ratios(report: SipReport): { cached: number; uncached: number } {
  const base = median(report.modes.static.callsPerSecond);
  return {
    cached: median(report.modes.cached.callsPerSecond) / base,
    uncached: median(report.modes.uncached.callsPerSecond) / base,
  };
}

export function formatSipReport(report: SipReport, _options: SipOptions): string {
  const { modes } = report;
  const row = (name: string, runs: SipReport['modes']['static']) => [
    name,
    median(runs.callsPerSecond).toFixed(0),
    String(runs.failedCalls),
  ];
  const ratio = ratios(report);
  return [
    `SIP calls through the reference gateway: ${report.calls} calls a run, ${report.concurrent} at once, offered at ${report.rate}/s`,
    '',
    ...table([
      ['gateway', 'calls/s (median)', 'failed calls'],
      row('static HA1 (no Trunkline lookups)', modes.static),
      row('Trunkline lookups, cached (as deployed)', modes.cached),
      row('Trunkline lookups, every INVITE', modes.uncached),
    ]),
    '',
    ratioLine('cached/static', ratio.cached, TARGET_RATIO),
    ratioLine('every-INVITE/static', ratio.uncached, TARGET_RATIO),
    runsLine('calls/s', {
      static: modes.static.callsPerSecond,
      cached: modes.cached.callsPerSecond,
      uncached: modes.uncached.callsPerSecond,
    }),
    `lookup GET /v1/gateway/trunks/{user}: p50 ${report.lookupMs.p50.toFixed(2)} ms, p99 ${report.lookupMs.p99.toFixed(2)} ms (${report.lookupMs.count} lookups, 8 at a time)`,
    `call end (BYE) to record in GET /v1/calls: p50 ${report.lagMs.p50.toFixed(0)} ms, p99 ${report.lagMs.p99.toFixed(0)} ms, max ${report.lagMs.max.toFixed(0)} ms (${report.lagMs.count} calls; polled every 25 ms)`,
    '',
  ].join('\n');
}
