import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createEventStore } from '../infrastructure/event-store/event-store.factory';
import type { EventStore } from '../infrastructure/event-store/event-store.port';
import { AppConfig, ConfigError, loadConfig } from '../platform/config/app-config';
import { lockDataDir } from '../platform/startup/data-dir.lock';
import { StartupError } from '../platform/startup/startup-error';

/**
 * The configuration, and the data-directory lock when the CLI will open the embedded event store
 * (PGlite cannot be shared with a running server). A remote event store needs no lock: the CLI
 * may run beside the servers.
 */
export function cliConfig(name: string, whatToDo: string): AppConfig {
  const config = loadConfig();
  if (!config.eventStoreUrl) lockDataDir(config.dataDir, name, whatToDo);
  return config;
}

export function openEventStore(config: AppConfig): Promise<EventStore> {
  return createEventStore({
    url: config.eventStoreUrl ?? undefined,
    dataDir: config.dataDir,
    schema: config.eventStoreSchema,
  });
}

/** Runs a CLI's main: a problem the user can fix is one line (no stack), exit 2 for usage or config, 1 otherwise. */
export function runCli(name: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    const known = error instanceof StartupError || error instanceof ConfigError;
    process.stderr.write(
      `${name}: ${known ? '' : 'failed: '}${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(error instanceof ConfigError ? 2 : 1);
  });
}

/**
 * The command line, parsed strictly by node:util's parseArgs (`config` without `args`): an unknown
 * option, a missing value or a stray positional prints `usage` and exits with `code`.
 */
export function cliArgs<T extends Omit<ParseArgsConfig, 'args' | 'strict'>>(
  config: T,
  usage: string,
  code = 2,
): ReturnType<typeof parseArgs<T & { args: string[]; strict: true }>> {
  try {
    return parseArgs({ ...config, args: process.argv.slice(2), strict: true as const });
  } catch {
    process.stderr.write(usage);
    process.exit(code);
  }
}
