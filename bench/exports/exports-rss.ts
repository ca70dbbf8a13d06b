import { treeRssNow } from '../lib/rss';

export interface WindowRss {
  /** Per process of the app's tree: its RSS when the window opened and its sampled peak in it. */
  processes: { name: string; startBytes: number; peakBytes: number }[];
}

/**
 * Resident memory of the app's process tree (the app and its chDB engine) sampled every 100 ms
 * over a window only: the kernel's own high-water mark (VmHWM) would keep the bulk load's peak.
 */
export class RssWindow {
  private readonly seen = new Map<number, { name: string; startBytes: number; peakBytes: number }>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly rootPid: number) {
    this.sample();
    this.timer = setInterval(() => this.sample(), 100).unref();
  }

  stop(): WindowRss {
    this.sample();
    clearInterval(this.timer);
    return { processes: [...this.seen.values()] };
  }

  private sample(): void {
    for (const p of treeRssNow(this.rootPid) ?? []) {
      const known = this.seen.get(p.pid);
      if (!known) this.seen.set(p.pid, { name: p.name, startBytes: p.rssBytes, peakBytes: p.rssBytes });
      else known.peakBytes = Math.max(known.peakBytes, p.rssBytes);
    }
  }
}
