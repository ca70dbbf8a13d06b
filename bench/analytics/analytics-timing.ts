/** Nearest-rank percentile of a small sample (p95 of 10 samples is the largest). */
export function percentileOf(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

export interface Summary {
  runs: number;
  p50: number;
  p95: number;
  min: number;
  max: number;
}

export function summarize(samples: readonly number[]): Summary {
  return {
    runs: samples.length,
    p50: percentileOf(samples, 50),
    p95: percentileOf(samples, 95),
    min: Math.min(...samples),
    max: Math.max(...samples),
  };
}

/** Runs `once` `warmup` times (discarded), then `runs` times, one after the other; returns ms each. */
export async function timeSequential(warmup: number, runs: number, once: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await once();
    samples.push(performance.now() - started);
  }
  return samples;
}
