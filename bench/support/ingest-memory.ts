import { readFileSync } from 'node:fs';

/**
 * The process's peak resident set: the kernel's high-water mark (VmHWM) where there is one, which
 * counts chDB's native memory and spikes between samples; elsewhere the max of 100 ms samples.
 */
export class PeakRss {
  private sampled = process.memoryUsage.rss();
  private readonly timer = setInterval(() => {
    this.sampled = Math.max(this.sampled, process.memoryUsage.rss());
  }, 100).unref();

  peakBytes(): number {
    this.sampled = Math.max(this.sampled, process.memoryUsage.rss());
    return Math.max(this.sampled, highWaterMark() ?? 0);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

function highWaterMark(): number | null {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}
