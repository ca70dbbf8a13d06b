/** chdb is an optional dependency: the server adapter must work where it is not installed. */
export class ChdbMissingError extends Error {
  constructor(override readonly cause: unknown) {
    const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    super(
      `embedded ClickHouse needs the optional dependency "chdb" (Linux x64/arm64 glibc or macOS), which could not be loaded: ${reason}. ` +
        'Install it (npm install chdb) or set CLICKHOUSE_URL to a ClickHouse server.',
    );
    this.name = 'ChdbMissingError';
  }
}

/**
 * Only checks that chdb can be found: the engine itself is loaded in its own child process, never
 * in this one (one engine per process; two in one process crash it).
 */
export function checkChdbInstalled(): void {
  try {
    require.resolve('chdb');
  } catch (error) {
    throw new ChdbMissingError(error);
  }
}
