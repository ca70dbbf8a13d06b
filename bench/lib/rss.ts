import { scriptOf, status, tree, type TreeRssFigures } from './process-tree';
import { meets } from './report';

/** One process's resident memory, split as /proc/<pid>/status does. */
export interface ProcessRss {
  name: string;
  pid: number;
  rssBytes: number;
  /** Heap, stacks, WebAssembly memory: what the process allocated. */
  anonBytes: number;
  /** Mapped files: mostly code (node's binary, libchdb.so), which the kernel can drop and re-read. */
  fileBytes: number;
}

export interface IdleRss {
  processes: ProcessRss[];
  totalBytes: number;
  /** From the first sample to the settled one. */
  settledAfterMs: number;
}

export interface SettleOptions {
  /** The sum must move less than this over `quietMs` … */
  toleranceBytes?: number;
  quietMs?: number;
  /** … or this long has passed. */
  maxMs?: number;
}

/** The resident memory of a process tree now, process by process (null without /proc). */
export function treeRssNow(rootPid: number): ProcessRss[] | null {
  const processes: ProcessRss[] = [];
  for (const pid of tree(rootPid)) {
    const s = status(pid);
    if (!s) {
      if (pid === rootPid) return null;
      continue;
    }
    processes.push({ name: scriptOf(pid), pid, rssBytes: s.rss, anonBytes: s.anon, fileBytes: s.file });
  }
  return processes;
}

/**
 * Idle RSS of a process tree once start-up has settled: sampled every 500 ms until the sum has
 * moved less than `toleranceBytes` (2 MiB) for `quietMs` (5 s), at most `maxMs` (60 s). Right
 * after "listening" a process still holds start-up garbage that its collector frees later, so
 * the first sample overstates what the process keeps.
 */
export async function settledRss(rootPid: number, options: SettleOptions = {}): Promise<IdleRss | null> {
  const { toleranceBytes = 2 * 2 ** 20, quietMs = 5000, maxMs = 60_000 } = options;
  const started = Date.now();
  let anchor = treeRssNow(rootPid);
  if (!anchor) return null;
  let anchorAt = started;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = treeRssNow(rootPid);
    if (!now) return null;
    if (Math.abs(sum(now) - sum(anchor)) > toleranceBytes) {
      anchor = now;
      anchorAt = Date.now();
    } else if (Date.now() - anchorAt >= quietMs) return idle(now, Date.now() - started);
    if (Date.now() - started >= maxMs) return idle(now, Date.now() - started);
  }
}

function idle(processes: ProcessRss[], settledAfterMs: number): IdleRss {
  return { processes, totalBytes: sum(processes), settledAfterMs };
}

const sum = (processes: ProcessRss[]): number => processes.reduce((total, p) => total + p.rssBytes, 0);

export const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);

/** The peak target of the app and its chDB worker together during a load (issue 16). */
export const PEAK_TARGET_BYTES = 2 ** 30;

/**
 * "memory: …" lines of a load bench: the app's settled idle RSS before the load, its sampled peak
 * during it against the target, and against the peak of the bench's baseline process.
 */
export function memoryLines(
  idle: IdleRss | null,
  peak: TreeRssFigures | null,
  baseline: TreeRssFigures | null,
): string[] {
  if (!idle || !peak) return ['memory: not measured (needs /proc)'];
  const split = idle.processes.map((p) => `${p.name} ${mib(p.rssBytes)}`).join(' + ');
  const lines = [
    `memory: app idle RSS ${mib(idle.totalBytes)} MiB before the load (${split}; settled after ${(idle.settledAfterMs / 1000).toFixed(1)} s)`,
    `memory: app peak RSS ${mib(peak.peakBytes)} MiB during the load (target <= ${mib(PEAK_TARGET_BYTES)} MiB: ${meets(peak.peakBytes <= PEAK_TARGET_BYTES)})`,
  ];
  if (baseline)
    lines.push(
      `memory: ratio app/baseline peak RSS: ${(peak.peakBytes / baseline.peakBytes).toFixed(2)} (baseline ${mib(baseline.peakBytes)} MiB)`,
    );
  return lines;
}
