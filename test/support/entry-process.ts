import { START_DEADLINE_MS } from './deadlines';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ApiClient } from './http-client';
import type { ServiceProcess } from './service-process';

const ROOT = join(__dirname, '..', '..');

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs an entry point of src/ (main.ts, a CLI) as its own process through swc, with only the
 * given environment, until it exits: for start-up refusals and CLI runs.
 */
export function runToExit(
  entry: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = START_DEADLINE_MS,
): Promise<Finished> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, entry), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** SIGTERM, as an operator stops it; resolves with the exit code (0 after a graceful stop). */
export async function stopService(service: ServiceProcess): Promise<number | null> {
  service.child.kill('SIGTERM');
  return service.exited;
}

/** The status of an admin request to a service process, with its printed key or another one. */
export async function adminStatus(service: ServiceProcess, key = service.adminKey): Promise<number> {
  const client = new ApiClient(service.origin, service.ca, key);
  try {
    return (await client.get('/v1/accounts')).status;
  } finally {
    await client.close();
  }
}
