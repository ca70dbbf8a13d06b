import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

export interface TreeRssFigures {
  /** The sum at the first sample (the processes idle, before the load). */
  firstBytes: number;
  peakBytes: number;
  /** Each process's own high-water mark (VmHWM). */
  processes: { name: string; peakBytes: number }[];
}

/**
 * Peak resident memory of a process and its descendants (the app and the chDB engine process it
 * forks), summed at each 100 ms sample. Reads Linux's /proc; elsewhere every figure is null.
 * Per process, the kernel's own high-water mark (VmHWM) is kept as well: it sees spikes between
 * samples, but the processes' peaks need not coincide, so only the sampled sum is "the" peak.
 */
export class TreeRss {
  private peakSum = 0;
  private firstSum: number | null = null;
  private readonly highWater = new Map<number, { name: string; bytes: number }>();
  private readonly timer: NodeJS.Timeout;
  private readonly supported: boolean;

  constructor(
    private readonly rootPid: number,
    intervalMs = 100,
  ) {
    this.supported = status(rootPid) !== null;
    this.timer = setInterval(() => this.sample(), intervalMs).unref();
    this.sample();
  }

  /** Samples once more and stops; call before the processes exit. */
  stop(): TreeRssFigures | null {
    this.sample();
    clearInterval(this.timer);
    if (!this.supported) return null;
    const processes = [...this.highWater.values()].map((p) => ({ name: p.name, peakBytes: p.bytes }));
    return { firstBytes: this.firstSum ?? 0, peakBytes: this.peakSum, processes };
  }

  private sample(): void {
    if (!this.supported) return;
    let sum = 0;
    for (const pid of tree(this.rootPid)) {
      const s = status(pid);
      if (!s) continue;
      sum += s.rss;
      const known = this.highWater.get(pid);
      if (!known || s.hwm > known.bytes) this.highWater.set(pid, { name: known?.name ?? scriptOf(pid), bytes: s.hwm });
    }
    this.firstSum ??= sum;
    this.peakSum = Math.max(this.peakSum, sum);
  }
}

/**
 * CPU time (user + system) of a process and its descendants so far, in µs, from /proc ticks
 * (USER_HZ = 100 on Linux, so 10 ms resolution); null where there is no /proc.
 */
export function treeCpuMicros(rootPid: number): number | null {
  const byProcess = treeCpuByProcess(rootPid);
  return byProcess && Object.values(byProcess).reduce((sum, micros) => sum + micros, 0);
}

/** The same, per process of the tree, keyed by the script it runs. */
export function treeCpuByProcess(rootPid: number): Record<string, number> | null {
  const micros: Record<string, number> = {};
  for (const pid of tree(rootPid)) {
    try {
      // Fields after the parenthesised command name: state is [0], utime [11], stime [12].
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()!.split(' ');
      const name = scriptOf(pid);
      micros[name] = (micros[name] ?? 0) + ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / USER_HZ;
    } catch {
      if (pid === rootPid) return null;
    }
  }
  return micros;
}

const USER_HZ = 100;

/** The process and its descendants, parents first. */
export function tree(root: number): number[] {
  const pids = [root];
  for (let i = 0; i < pids.length; i++) pids.push(...children(pids[i]));
  return pids;
}

/** Children are listed per thread that forked them, so every thread of the process is read. */
function children(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** A process's memory from /proc/<pid>/status, in bytes (null once it is gone, or without /proc). */
export function status(pid: number): { rss: number; hwm: number; anon: number; file: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(text)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM'), anon: kb('RssAnon'), file: kb('RssFile') };
  } catch {
    return null;
  }
}

/** The script a node process runs (`chdb.worker.js`), else its executable. */
export function scriptOf(pid: number): string {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const script = args.find((arg) => arg.endsWith('.js') || arg.endsWith('.ts')) ?? args[0] ?? String(pid);
    return basename(script);
  } catch {
    return String(pid);
  }
}
