import { START_DEADLINE_MS } from './deadlines';
import { fork } from 'node:child_process';
import { join } from 'node:path';

export interface ClickHouseHttpServer {
  /** http://127.0.0.1:<port>, for CLICKHOUSE_URL or createClient({ url }). */
  url: string;
  /** Closes the engine and waits until the process has exited. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts clickhouse-http.server.ts over chDB in `dataDir`, in a process of its own: chDB holds one
 * data directory per process, and the test process stays free of the engine. The server picks a
 * free loopback port and reports it over IPC.
 */
export async function startClickHouseHttpServer(
  dataDir: string,
  timeoutMs = START_DEADLINE_MS,
): Promise<ClickHouseHttpServer> {
  const child = fork(join(__dirname, 'clickhouse-http.server.ts'), [dataDir], {
    execArgv: ['--require', require.resolve('@swc-node/register')],
    // TZ as a server container usually has it; the executor contract asks for explicit zones anyway.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TZ: 'UTC' },
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
    process.stderr.write(chunk);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      if (child.connected) child.disconnect();
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      void exited.then(() => clearTimeout(kill));
    }
    return exited;
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no port after ${timeoutMs} ms`)), timeoutMs);
      child.once('message', (message: { port: number }) => {
        clearTimeout(timer);
        resolve(message.port);
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`exited (code ${child.exitCode}) before listening`));
      });
    });
    return { url: `http://127.0.0.1:${port}`, close: stop };
  } catch (error) {
    await stop();
    throw new Error(`ClickHouse HTTP test server: ${(error as Error).message}\n${stderr.trim()}`, { cause: error });
  }
}
