// Builds dist/ only when a build input changed since the last build, so that `npm start` and the
// CLIs skip the ~10 s build when nothing did. A fresh clone (no stamp) builds. Inputs are what
// tsconfig.build.json compiles (src/, media-gateway/, bench/, scripts/), the console Vite bundles (console/, and
// the API client it imports from clients/) and the files that configure the build;
// directory times count too, so a deleted or renamed file is a change.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const INPUT_DIRS = ['src', 'media-gateway', 'bench', 'scripts', 'console', 'clients'];
const INPUT_FILES = ['tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', 'package.json', 'package-lock.json'];
const STAMP = join(ROOT, 'dist', '.build-stamp');

/** The newest modification time under a path (the path itself included), in ms; 0 if it is absent. */
function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  let latest = stat.mtimeMs;
  if (stat.isDirectory()) for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const inputs = Math.max(...[...INPUT_DIRS, ...INPUT_FILES].map((name) => newest(join(ROOT, name))));
const built = existsSync(join(ROOT, 'dist', 'src', 'main.js')) ? newest(STAMP) : 0;
if (built > 0 && inputs <= built) process.exit(0);

process.stderr.write(
  built === 0 ? 'building dist/ (first build)\n' : 'building dist/ (sources changed since the last build)\n',
);
// The stamp carries the time the build started: a file saved during the build is newer than it.
const started = new Date();
const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
writeFileSync(STAMP, `${started.toISOString()}\n`);
utimesSync(STAMP, started, started);
