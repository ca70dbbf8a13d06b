import { Percentiles } from '../lib/percentiles';

export interface Summary {
  runs: number;
  p50: number;
  p95: number;
  min: number;
  max: number;
}

/** Nearest-rank percentiles of a small sample (p95 of 10 samples is the largest); NaN when empty. */
export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) return { runs: 0, p50: Number.NaN, p95: Number.NaN, min: Number.NaN, max: Number.NaN };
  const percentiles = Percentiles.of(samples);
  return {
    runs: samples.length,
    p50: percentiles.at(50),
    p95: percentiles.at(95),
    min: percentiles.min,
    max: percentiles.max,
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
