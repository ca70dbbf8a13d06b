import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** /proc reports CPU time in USER_HZ ticks, which Linux fixes at 100 per second for user space. */
const MICROS_PER_TICK = 10_000;

interface ProcessEntry {
  pid: number;
  ppid: number;
  ticks: number;
}

/**
 * CPU time of a process and all its descendants, read from /proc (Linux). The app runs embedded
 * chDB in a child process of its own, so the harness's process.cpuUsage() of the app child
 * leaves the ClickHouse work out; this counts it. Null where there is no /proc.
 */
export function processTreeCpu(scriptSuffix: string, parentPid = process.pid): (() => Promise<number>) | null {
  if (!existsSync('/proc/self/stat')) return null;
  const root = readProcesses().find(
    (entry) => entry.ppid === parentPid && commandLine(entry.pid).some((arg) => arg.endsWith(scriptSuffix)),
  );
  if (!root) return null;
  return async () => {
    const all = readProcesses();
    const tree = new Set([root.pid]);
    // Parents precede children in no guaranteed order: repeat until no process joins.
    for (let grew = true; grew;) {
      grew = false;
      for (const entry of all) {
        if (tree.has(entry.pid) || !tree.has(entry.ppid)) continue;
        tree.add(entry.pid);
        grew = true;
      }
    }
    return all.filter((entry) => tree.has(entry.pid)).reduce((sum, entry) => sum + entry.ticks * MICROS_PER_TICK, 0);
  };
}

function readProcesses(): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readOrNull(`/proc/${name}/stat`);
    if (stat === null) continue; // exited since the listing
    // The command name (field 2) is in parentheses and may hold spaces: split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    entries.push({ pid: Number(name), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
  }
  return entries;
}

function commandLine(pid: number): string[] {
  return (readOrNull(`/proc/${pid}/cmdline`) ?? '').split('\0');
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
