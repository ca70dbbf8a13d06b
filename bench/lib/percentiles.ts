const BUCKET_MS = 0.01;
const MAX_MS = 5000;

/**
 * Fixed 10 µs buckets up to 5 s, slower responses counted in the last one. autocannon's own
 * latency histogram keeps whole milliseconds, which reads as "0 ms" for a fast server.
 */
export class LatencyHistogram {
  private readonly counts = new Uint32Array(Math.ceil(MAX_MS / BUCKET_MS) + 1);
  private total = 0;

  record(ms: number): void {
    this.counts[Math.min(this.counts.length - 1, Math.max(0, Math.round(ms / BUCKET_MS)))]++;
    this.total++;
  }

  /** The latency at or below which `percent` of the responses were, in ms. */
  percentile(percent: number): number {
    if (this.total === 0) return 0;
    const rank = Math.ceil((percent / 100) * this.total);
    let seen = 0;
    for (let bucket = 0; bucket < this.counts.length; bucket++) {
      seen += this.counts[bucket];
      if (seen >= rank) return bucket * BUCKET_MS;
    }
    return MAX_MS;
  }
}
