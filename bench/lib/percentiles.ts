import { build, type Histogram } from 'hdr-histogram-js';

/**
 * Nearest-rank percentiles of recorded values, kept by an HDR histogram to 3 significant digits
 * with no upper cap (autoResize). Values are recorded as whole multiples of `1 / unitsPerValue`:
 * the default, 1000, keeps microseconds of millisecond latencies. autocannon's own histogram keeps
 * whole milliseconds, which reads as "0 ms" for a fast server.
 */
export class Percentiles {
  private readonly histogram: Histogram = build({ numberOfSignificantValueDigits: 3, autoResize: true });

  constructor(private readonly unitsPerValue = 1000) {}

  static of(values: Iterable<number>, unitsPerValue?: number): Percentiles {
    const percentiles = new Percentiles(unitsPerValue);
    for (const value of values) percentiles.record(value);
    return percentiles;
  }

  record(value: number): void {
    this.histogram.recordValue(Math.max(0, Math.round(value * this.unitsPerValue)));
  }

  get count(): number {
    return this.histogram.totalCount;
  }

  /**
   * The value at or below which `percent` of the recorded values are; 0 when none were recorded.
   * The histogram answers with the top of the value's bucket, never above the largest value seen.
   */
  at(percent: number): number {
    if (this.count === 0) return 0;
    return Math.min(this.histogram.getValueAtPercentile(percent), this.histogram.maxValue) / this.unitsPerValue;
  }

  get min(): number {
    return this.at(0);
  }

  get max(): number {
    return this.count === 0 ? 0 : this.histogram.maxValue / this.unitsPerValue;
  }
}

/**
 * The median of a few rounds' figures (the mean of the middle two for an even count): a headline
 * over same-run rounds, not a latency percentile, so it is computed exactly.
 */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
