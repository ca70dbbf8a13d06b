import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface WorkerEntry {
  file: string;
  /** Node flags of the engine process (none when unset). */
  execArgv?: string[];
}

/**
 * The compiled `chdb.worker.js` beside this file when there is one (production runs dist/).
 * Otherwise we run from TypeScript sources (ts-jest, @swc-node/register): the child process does
 * not inherit the parent's transpiler hook, so it gets swc's.
 */
export function resolveWorkerEntry(dir: string = __dirname): WorkerEntry {
  const compiled = join(dir, 'chdb.worker.js');
  if (existsSync(compiled)) return { file: compiled };
  return { file: join(dir, 'chdb.worker.ts'), execArgv: ['--require', require.resolve('@swc-node/register')] };
}
