import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from './startup-error';

const LOCK_FILE = 'trunkline.lock';
const HAS_PROC = existsSync('/proc/self/stat');

/** Who holds a data directory: written once, whole, when the lock is taken. */
export interface LockHolder {
  pid: number;
  /** "server", or the CLI's name ("trunks:history"). */
  role: string;
  since: string;
  /** Linux: the process's start time (/proc/<pid>/stat), so a reused pid is not taken for the holder. */
  procStart: string | null;
}

export interface DataDirLock {
  readonly path: string;
  release(): void;
}

/**
 * One process at a time per data directory: the embedded stores (PGlite, chDB) are damaged or
 * fail when two processes open them. The lock file appears whole or not at all (written aside,
 * then hard-linked into place, which fails if it exists). A lock whose pid is gone, or now
 * names another process (its start time differs), is stale: a crash or SIGKILL never leaves the
 * directory locked. Released when the process exits.
 */
export function lockDataDir(dataDir: string, role: string, whatToDo: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, LOCK_FILE);
  const mine = JSON.stringify({
    pid: process.pid,
    role,
    since: new Date().toISOString(),
    procStart: procOf(process.pid)?.start ?? null,
  } satisfies LockHolder);
  for (let attempt = 0; attempt < 10; attempt++) {
    if (tryCreate(path, mine)) return held(path, mine);
    const seen = readLock(path);
    if (seen === null) continue; // released meanwhile
    const holder = parseHolder(seen);
    if (holder && isAlive(holder)) throw new DataDirBusyError(dataDir, holder, whatToDo);
    breakStale(path, seen);
  }
  throw new StartupError(`could not take the lock ${path}: other processes keep taking it; try again`);
}

export class DataDirBusyError extends StartupError {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
    whatToDo: string,
  ) {
    const who = holder.role === 'server' ? 'a running Trunkline server' : `a running "npm run ${holder.role}"`;
    super(`the data directory ${dataDir} is in use by ${who} (pid ${holder.pid}, since ${holder.since}): ${whatToDo}`);
  }
}

function tryCreate(path: string, content: string): boolean {
  const aside = `${path}.${process.pid}.new`;
  writeFileSync(aside, content, { mode: 0o600 });
  try {
    linkSync(aside, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(aside);
  }
}

/**
 * Moves the stale lock aside (rename is atomic: of two processes breaking the same lock, one
 * moves it). If what was moved is not the lock judged stale, another process took the lock
 * in between: it is put back, and the next round finds its holder alive.
 */
function breakStale(path: string, seen: string): void {
  const aside = `${path}.${process.pid}.stale`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (readLock(aside) !== seen) linkSync(aside, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(aside);
  }
}

function held(path: string, mine: string): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    // Never remove a lock that is no longer ours (taken over after we were judged stale).
    try {
      if (readLock(path) === mine) unlinkSync(path);
    } catch {
      // gone already: nothing to release
    }
  };
  process.on('exit', release);
  return { path, release };
}

function readLock(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function parseHolder(text: string): LockHolder | null {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    return Number.isInteger(value.pid) && (value.pid as number) > 0 ? (value as LockHolder) : null;
  } catch {
    return null; // not a lock this code wrote: stale
  }
}

function isAlive(holder: LockHolder): boolean {
  // A previous life with our own pid: a container's process is pid 1 at every start.
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  if (!HAS_PROC) return true;
  const proc = procOf(holder.pid);
  if (!proc || proc.zombie) return false;
  return !holder.procStart || proc.start === holder.procStart;
}

/** /proc/<pid>/stat: state (3rd field) and start time (22nd); null where there is no /proc. */
function procOf(pid: number): { zombie: boolean; start: string } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { zombie: fields[0] === 'Z', start: fields[19] };
}
