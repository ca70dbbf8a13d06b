import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { eventStoreKind } from '../infrastructure/event-store/event-store.factory';
import type { CatchUpElsewhere, ProjectionRunner } from '../eventsourcing/projection-runner';

/** Where the worker finds its own connections, and what it needs to build the read-model projections. */
export interface ReadModelsWorkerStores {
  /** A server event store (postgres(ql)://, esdb://, kurrentdb://): PGlite lives in this thread only. */
  eventStoreUrl: string;
  eventStoreSchema: string;
  redisUrl: string;
  /** The read-model namespace (readModelNamespace): the worker writes where the runner reads. */
  namespace: string;
  sipDomain: string;
  /**
   * Decrypts the data keys of the SIP passwords (the gateway records' HA1). Handed to the worker
   * as a copy that is moved, not cloned, into it (transferList): it stays in this process's
   * memory, is never serialized outside it nor logged, and the worker wipes its copy once the
   * secret box holds it.
   */
  masterKey: Buffer;
}

/** What the worker receives (workerData). */
export interface ReadModelsWorkerData extends Omit<ReadModelsWorkerStores, 'masterKey'> {
  masterKey: Uint8Array;
  runner: string;
  pageSize: number;
}

/** What the worker answers once: done, or the failure's message (never a secret: no data passes in it). */
export type ReadModelsWorkerReply = { done: true } | { error: string };

/** True for the event stores a second thread can read with its own connection (not embedded PGlite). */
export const offThreadReadable = (eventStoreUrl: string | null | undefined): boolean => {
  const kind = eventStoreKind(eventStoreUrl);
  return kind === 'postgres' || kind === 'eventstoredb';
};

/** `REBUILD_READ_MODELS_THREAD`: where `projections:rebuild` replays the read-model runner. */
export type ReadModelsThread = 'auto' | 'worker' | 'main';
export const READ_MODELS_THREADS: readonly ReadModelsThread[] = ['auto', 'worker', 'main'];

/**
 * Whether the read-model runner replays in a worker thread: never on embedded PGlite (one thread
 * only); `worker` and `main` as asked; `auto` when the machine has a core to spare for it (4 or
 * more): the worker reads and parses its events a second time, which pays only when it runs
 * beside the main thread instead of taking turns with it (docs/benchmarks.md, rebuild, session 11).
 */
export function rebuildInWorker(
  choice: ReadModelsThread,
  eventStoreUrl: string | null | undefined,
  cores: number,
): boolean {
  if (!offThreadReadable(eventStoreUrl)) return false;
  return choice === 'worker' || (choice === 'auto' && cores >= 4);
}

/**
 * The read-model runner's catch-up in a worker thread (docs/architecture.md, "Catch-up in
 * pages"): decrypting SIP passwords, building trunk views and gateway records is most of a
 * rebuild's work, so it runs beside the thread that reads and applies the other followers.
 */
export function readModelsInWorker(runner: ProjectionRunner, stores: ReadModelsWorkerStores): CatchUpElsewhere {
  return { runner, run: (pageSize) => runWorker(runner.name, pageSize, stores) };
}

function runWorker(runner: string, pageSize: number, { masterKey, ...stores }: ReadModelsWorkerStores): Promise<void> {
  const key = new Uint8Array(masterKey); // its own ArrayBuffer (Buffer.from may share a pool), moved below
  const workerData: ReadModelsWorkerData = { ...stores, masterKey: key, runner, pageSize };
  const entry = resolveEntry();
  const worker = new Worker(entry.file, { workerData, transferList: [key.buffer], execArgv: entry.execArgv });
  return new Promise<void>((resolve, reject) => {
    let reply: ReadModelsWorkerReply | null = null;
    worker.once('message', (message: ReadModelsWorkerReply) => (reply = message));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (reply && 'done' in reply) resolve();
      else reject(new Error(`read-model rebuild worker: ${reply?.error ?? `exited with code ${code}`}`));
    });
  });
}

/**
 * The compiled worker beside this file (dist/), else its TypeScript source with TypeScript's own
 * transpiling hook (jest runs the sources): swc's loads a native addon that crashes the process
 * when a worker that loaded it exits (media-gateway/ts-transpile.hook.js says more).
 */
function resolveEntry(dir: string = __dirname): { file: string; execArgv: string[] } {
  // A process run with --cpu-prof profiles its worker too.
  const profiling = process.execArgv.filter((flag) => flag.startsWith('--cpu-prof'));
  const compiled = join(dir, 'read-models-rebuild.worker.js');
  if (existsSync(compiled)) return { file: compiled, execArgv: profiling };
  const hook = join(dir, '..', '..', 'media-gateway', 'ts-transpile.hook.js');
  return { file: join(dir, 'read-models-rebuild.worker.ts'), execArgv: [...profiling, '--require', hook] };
}
