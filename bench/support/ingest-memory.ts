import { readdirSync, readFileSync } from 'node:fs';

/**
 * Peak resident memory of a process and its descendants (the app and the chDB engine process it
 * forks), summed at each 100 ms sample. Reads Linux's /proc; elsewhere every figure is null.
 * Per process, the kernel's own high-water mark (VmHWM) is kept as well: it sees spikes between
 * samples, but the processes' peaks need not coincide, so only the sampled sum is "the" peak.
 */
export class TreeRss {
  private peakSum = 0;
  private readonly highWater = new Map<number, { name: string; bytes: number }>();
  private readonly timer: NodeJS.Timeout;
  private readonly supported: boolean;

  constructor(private readonly rootPid: number, intervalMs = 100) {
    this.supported = status(rootPid) !== null;
    this.timer = setInterval(() => this.sample(), intervalMs).unref();
    this.sample();
  }

  /** Samples once more and stops; call before the processes exit. */
  stop(): { peakBytes: number; processes: { name: string; peakBytes: number }[] } | null {
    this.sample();
    clearInterval(this.timer);
    if (!this.supported) return null;
    return { peakBytes: this.peakSum, processes: [...this.highWater.values()].map((p) => ({ name: p.name, peakBytes: p.bytes })) };
  }

  private sample(): void {
    if (!this.supported) return;
    let sum = 0;
    for (const pid of tree(this.rootPid)) {
      const s = status(pid);
      if (!s) continue;
      sum += s.rss;
      const known = this.highWater.get(pid);
      if (!known || s.hwm > known.bytes) this.highWater.set(pid, { name: s.name, bytes: s.hwm });
    }
    this.peakSum = Math.max(this.peakSum, sum);
  }
}

function tree(root: number): number[] {
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

function status(pid: number): { name: string; rss: number; hwm: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(text)?.[1] ?? 0) * 1024;
    return { name: /^Name:\s+(.*)$/m.exec(text)?.[1] ?? String(pid), rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}
