import { CPU_PROF_OPTION, LOAD_OPTIONS, parseBenchArgs, STORES_NOTE, storeUrls } from '../lib/options';

const COMMAND = {
  script: 'trunks/trunks.bench.js',
  options: {
    ...LOAD_OPTIONS,
    writers: { type: 'integer', default: 16, help: 'concurrent clients of the POST and PATCH runs' },
    'patch-trunks': { type: 'integer', default: 200, help: 'trunks the PATCHes are spread over' },
    trunks: { type: 'integer', default: 10_000, help: 'trunks in the account for the GET runs' },
    'seed-connections': { type: 'integer', default: 32, help: 'concurrent POSTs that create the missing trunks' },
    'cpu-prof': CPU_PROF_OPTION,
  },
  notes: [STORES_NOTE],
} as const;

export type TrunksBenchOptions = ReturnType<typeof parseTrunksBenchOptions>;

export function parseTrunksBenchOptions(argv: string[]) {
  return { ...parseBenchArgs(argv, COMMAND), ...storeUrls() };
}
