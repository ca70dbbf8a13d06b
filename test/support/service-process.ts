import { SETTLE_DEADLINE_MS, START_DEADLINE_MS } from './deadlines';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  origin: string;
  ca: string;
  adminKey: string | null;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

const ROOT = join(__dirname, '..', '..');

/** The real service as its own process (`src/main.ts` through swc), for signal and crash tests. */
export async function startServiceProcess(
  env: Record<string, string>,
  timeoutMs = START_DEADLINE_MS,
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // See test-app.ts: a busy machine may hold a Redis command past the production 1 s.
      REDIS_COMMAND_TIMEOUT_MS: String(SETTLE_DEADLINE_MS),
      CONSISTENCY_TIMEOUT_MS: String(SETTLE_DEADLINE_MS),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = Date.now();
  while (!/listening on https?:\/\/[^:]+:(\d+)/.test(output)) {
    if (child.exitCode !== null) throw new Error(`service exited early:\n${output}`);
    if (Date.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`service did not start in ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const port = Number(/listening on https?:\/\/[^:]+:(\d+)/.exec(output)![1]);
  const ca = readFileSync(join(env.DATA_DIR, 'tls', 'cert.pem'), 'utf8');
  const adminKey = /(sk_(?:live|test)_[A-Za-z0-9]{32})/.exec(output)?.[1] ?? env.ADMIN_API_KEY ?? null;
  return { child, port, origin: `https://127.0.0.1:${port}`, ca, adminKey, output: () => output, exited };
}

/** The pids of a process's children (the service's chDB worker), read before the service dies. */
export function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}

/** Resolves once none of the pids exists any more (a killed worker is reaped by init). */
export async function waitForExit(pids: readonly number[], timeoutMs = SETTLE_DEADLINE_MS): Promise<void> {
  const started = Date.now();
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (pids.some(alive)) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`processes ${pids.filter(alive).join(', ')} still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * SIGKILLs the service and its children together (as a container runtime does) and waits for all
 * of them, so a data directory can be removed without a worker still writing into it.
 */
export async function killServiceTree(service: ServiceProcess): Promise<void> {
  const pids = [service.child.pid!, ...childPids(service.child.pid!)];
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await service.exited;
  await waitForExit(pids);
}

/** Removes a test's data directory after every process that wrote into it is gone. */
export async function removeDataDir(dataDir: string, writers: readonly number[] = []): Promise<void> {
  await waitForExit(writers);
  // A file a dying writer flushed last can appear while the tree is being removed (ENOTEMPTY):
  // go again until the directory is gone, however slowly the machine lets the writer finish.
  const started = Date.now();
  for (;;) {
    try {
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOTEMPTY' || Date.now() - started > SETTLE_DEADLINE_MS)
        throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
