import { CPU_PROF_OPTION, LOAD_OPTIONS, parseBenchArgs, STORES_NOTE, storeUrls } from '../lib/options';

export const DEFAULT_PATH = '/v1/accounts/{account_id}';

const COMMAND = {
  script: 'api/api.bench.js',
  options: {
    ...LOAD_OPTIONS,
    path: {
      type: 'string',
      default: DEFAULT_PATH,
      pattern: /^\//,
      help: 'GET path template; {account_id}, {trunk_id}, {sip_username} filled in (one trunk is provisioned)',
    },
    key: {
      type: 'string',
      default: '',
      pattern: /^(admin|account)$/,
      help: 'admin|account: key sent (admin for /v1/accounts paths, else the account full-scope key)',
    },
    writers: { type: 'integer', default: 16, help: 'event-store concurrent writers' },
    'es-seconds': { type: 'integer', default: 10, help: 'event-store bench seconds' },
    'no-event-store': { type: 'flag', help: 'skip the event-store bench' },
    'cpu-prof': {
      ...CPU_PROF_OPTION,
      help: "write V8 CPU profiles of the bench's children to ./bench-profiles/ and print where the app's CPU time went in its measured runs",
    },
  },
  notes: [STORES_NOTE],
} as const;

export type ApiBenchOptions = ReturnType<typeof parseApiOptions>;

export function parseApiOptions(argv: string[]) {
  const { key, writers, esSeconds, noEventStore, ...args } = parseBenchArgs(argv, COMMAND);
  return {
    ...args,
    /** Which key the GET carries: the admin key, or the account's full-scope key. */
    key: (key || (args.path.startsWith('/v1/accounts') ? 'admin' : 'account')) as 'admin' | 'account',
    eventStore: noEventStore ? null : { writers, seconds: esSeconds },
    ...storeUrls(),
  };
}
