import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository's root (the directory of package.json), from sources and from dist/ alike. */
function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

/** deploy/kamailio: the reference gateway's configuration, run.sh, and the SIPp scenarios in sipp/. */
export const GATEWAY_DIR = join(repoRoot(), 'deploy', 'kamailio');
export const SCENARIOS_DIR = join(GATEWAY_DIR, 'sipp');
