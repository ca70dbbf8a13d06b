/**
 * Fixed-memory statistics of per-frame durations (ms): mean for `gateway_processing_ms`, maximum and
 * percentiles for the benchmark. Buckets of 0.05 ms up to 50 ms, then one overflow bucket; no per-sample allocation.
 */
const BUCKET_MS = 0.05;
const BUCKETS = 1000;

export class ProcessingMeter {
  private readonly buckets = new Uint32Array(BUCKETS + 1);
  private sum = 0;
  count = 0;
  maxMs = 0;

  add(ms: number): void {
    const v = ms > 0 ? ms : 0;
    this.sum += v;
    this.count++;
    if (v > this.maxMs) this.maxMs = v;
    const i = Math.floor(v / BUCKET_MS);
    this.buckets[i < BUCKETS ? i : BUCKETS]++;
  }

  /** Mean in ms, null when nothing was measured. */
  mean(): number | null {
    return this.count === 0 ? null : this.sum / this.count;
  }

  /** Upper edge of the bucket holding the p-th percentile (0-100), null when empty; the maximum past 50 ms. */
  percentile(p: number): number | null {
    if (this.count === 0) return null;
    const rank = Math.max(1, Math.ceil((p / 100) * this.count));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.buckets[i];
      if (seen >= rank) return Math.min((i + 1) * BUCKET_MS, this.maxMs);
    }
    return this.maxMs;
  }

  /** Adds another meter's samples (for totals over calls). */
  merge(other: ProcessingMeter): void {
    for (let i = 0; i <= BUCKETS; i++) this.buckets[i] += other.buckets[i];
    this.sum += other.sum;
    this.count += other.count;
    if (other.maxMs > this.maxMs) this.maxMs = other.maxMs;
  }
}
