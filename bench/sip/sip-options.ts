import { type BenchArgs } from '../lib/options';

export const SIP_OPTIONS = {
  calls: { type: 'integer', default: 1000, help: 'calls per measured run' },
  concurrent: { type: 'integer', default: 150, help: 'calls up at once in a run (SIPp -l)' },
  rate: {
    type: 'integer',
    default: 1000,
    help: 'calls offered per second (SIPp -r); the runs report what got through',
  },
  rounds: {
    type: 'integer',
    default: 3,
    help: 'alternating static/cached/uncached rounds; the median of each is reported',
  },
  lookups: {
    type: 'integer',
    default: 4000,
    help: 'lookups timed for the lookup latency (8 at a time, as 8 SIP workers)',
  },
  'lag-calls': { type: 'integer', default: 200, help: 'calls whose end-to-record lag is measured' },
} as const;

export type SipOptions = BenchArgs<typeof SIP_OPTIONS>;

/** Calls per second of one mode over the rounds, and the calls that failed. */
export interface ModeRuns {
  callsPerSecond: number[];
  failedCalls: number;
}

export interface SipReport {
  calls: number;
  concurrent: number;
  rate: number;
  modes: { static: ModeRuns; cached: ModeRuns; uncached: ModeRuns };
  lookupMs: { p50: number; p99: number; count: number };
  lagMs: { p50: number; p99: number; max: number; count: number };
}
