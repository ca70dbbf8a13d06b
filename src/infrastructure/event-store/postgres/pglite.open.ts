import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * PostgreSQL's buffer pool inside PGlite's WebAssembly memory. initdb writes 128MB, sized for a
 * server; PGlite's pages live in that memory and every one touched stays resident. The event
 * store reads the tail of its log and a few index pages per append, and the OS page cache keeps
 * the files anyway, so 16MB holds the working set (docs/memory.md).
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * How long creating a new directory (initdb in the child) may take before the start fails. A few
 * seconds on a quiet machine, but a busy one stretches it many times over: a CI runner at a load
 * average of 25 on 2 cores took more than 120 s. The limit is only there so a child that hangs
 * cannot hold the start forever.
 */
const INIT_TIMEOUT_MS = 600_000;

export function pgliteStartParams(): string[] {
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
}

/**
 * Opens the PGlite data directory, creating it first when it is new. PGlite creates a directory
 * with a second, throwaway PGlite instance running initdb; this process's collector then keeps
 * that instance's WebAssembly memory and compiled code (~400 MiB) until some later full GC, which
 * an idle server may never run. So a new directory is created in a short-lived child process,
 * whose memory goes back to the OS when it exits, and only the ready directory is opened here.
 */
export async function openPgliteDb(dir: string): Promise<PGlite> {
  if (!existsSync(join(dir, 'PG_VERSION'))) await initInChild(dir);
  return PGlite.create(dir, { startParams: pgliteStartParams() });
}

/** The child is a few lines of script: it needs no build of its own and none of our environment. */
const INIT_SCRIPT = `
const [moduleFile, dir, params] = process.argv.slice(1);
const { PGlite } = require(moduleFile);
PGlite.create(dir, { startParams: JSON.parse(params) }).then((db) => db.close()).catch((error) => {
  process.stderr.write(String(error && error.message ? error.message : error));
  process.exit(1);
});`;

/** Creates a new PGlite directory in a child process; rejects when it fails or outlives `timeoutMs`. */
export function initInChild(dir: string, timeoutMs = INIT_TIMEOUT_MS): Promise<void> {
  const args = ['-e', INIT_SCRIPT, require.resolve('@electric-sql/pglite'), dir, JSON.stringify(pgliteStartParams())];
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env, timeout: timeoutMs }, (error, _stdout, stderr) => {
      if (!error) return resolve();
      const why = error.killed
        ? `initdb did not finish within ${timeoutMs / 1000} s`
        : stderr.trim().slice(-500) || error.message;
      reject(new Error(`PGlite could not create ${dir}: ${why}`));
    });
  });
}
