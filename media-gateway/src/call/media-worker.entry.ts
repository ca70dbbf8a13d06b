import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface MediaWorkerEntry {
  file: string;
  execArgv: string[];
}

/**
 * The compiled `media-worker.js` beside this file (production runs dist/), else the TypeScript
 * source with a pure-JavaScript transpiling hook (npm run test:media, bench:media and jest run the
 * sources): not swc's, whose native addon crashes the process when a worker that loaded it exits
 * (media-gateway/ts-transpile.hook.js).
 */
export function resolveMediaWorkerEntry(dir: string = __dirname): MediaWorkerEntry {
  // A process run with --cpu-prof (bench:media) profiles its media workers too.
  const profiling = process.execArgv.filter((flag) => flag.startsWith('--cpu-prof'));
  const compiled = join(dir, 'media-worker.js');
  if (existsSync(compiled)) return { file: compiled, execArgv: profiling };
  return {
    file: join(dir, 'media-worker.ts'),
    execArgv: [...profiling, '--require', join(dir, '..', '..', 'ts-transpile.hook.js')],
  };
}
