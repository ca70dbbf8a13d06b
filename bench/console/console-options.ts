import { parseBenchArgs } from '../lib/options';

const COMMAND = {
  script: 'console/console.bench.js',
  options: {
    calls: { type: 'integer', default: 1_000_000, help: 'call records to load (--calls 50000 for a quick run)' },
    days: { type: 'integer', default: 7, help: 'spread over the last N days' },
    trunks: { type: 'integer', default: 20, help: 'trunks' },
    seed: { type: 'integer', default: 42, min: 0, help: 'generator seed' },
    batch: {
      type: 'integer',
      default: 10_000,
      field: 'batchRows',
      help: "rows per INSERT (within the embedded engine's 768 MiB cap)",
    },
    range: {
      type: 'string',
      default: '7d',
      pattern: /^(24h|7d|30d)$/,
      help: "the overview's range picker preset: 24h (hourly), 7d or 30d (daily)",
    },
    loads: { type: 'integer', default: 10, help: 'measured page loads of each kind (cold and warm cache)' },
    warmup: { type: 'integer', default: 2, min: 0, help: 'discarded loads first' },
    settle: {
      type: 'integer',
      default: 600,
      min: 0,
      field: 'settleSeconds',
      help: 'seconds to wait at most for background merges after the load',
    },
  },
  notes: ['env: CHROMIUM_PATH (default /usr/bin/chromium; apt-get install chromium)'],
} as const;

export type ConsoleBenchOptions = ReturnType<typeof parseConsoleOptions>;

export function parseConsoleOptions(argv: string[]) {
  return parseBenchArgs(argv, COMMAND);
}
