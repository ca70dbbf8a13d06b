/** Deterministic randomness for the call generator: a keyed PRNG, weighted picks, hex ids. */

// Module constants, not globals: inside a vm context (Jest runs tests in one) every global lookup
// goes through the context's interceptor, which made generation 13 times slower there.
const { exp, imul, log, sqrt } = Math;

/** murmur3's finalizer: a bijection on 32-bit integers with good avalanche. */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** xoshiro128**: 128-bit state, so per-record streams never overlap in practice (mulberry32's 32-bit state would). */
export class Rng {
  private a = 1;
  private b = 2;
  private c = 3;
  private d = 4;
  private spare = 0;
  private hasSpare = false;

  seed(key: number, lo: number, hi: number): void {
    this.a = mix32(lo ^ key);
    this.b = mix32((hi + 0x9e3779b9) ^ key);
    this.c = mix32(this.a + 0x632be5ab);
    this.d = mix32(this.b ^ lo ^ 0x85157af5) | 1;
    this.hasSpare = false;
  }

  u32(): number {
    const r = imul(rotl(imul(this.b, 5), 7), 9);
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return r >>> 0;
  }

  next(): number {
    return this.u32() / 4_294_967_296;
  }

  /** Standard normal by Marsaglia's polar method (no trigonometry); the pair's second value is kept. */
  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spare;
    }
    let u: number, v: number, s: number;
    do {
      u = 2 * this.next() - 1;
      v = 2 * this.next() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const f = sqrt((-2 * log(s)) / s);
    this.spare = v * f;
    this.hasSpare = true;
    return u * f;
  }

  logNormal(median: number, sigma: number): number {
    return median * exp(sigma * this.normal());
  }
}

const rotl = (x: number, k: number): number => (x << k) | (x >>> (32 - k));

/** Cumulative table for weighted picks; the last bound is forced to 1 so rounding never falls off. */
export function cumulative(weights: readonly number[]): Float64Array {
  const total = weights.reduce((sum, w) => sum + w, 0);
  const bounds = new Float64Array(weights.length);
  let acc = 0;
  weights.forEach((w, i) => {
    acc += w / total;
    bounds[i] = acc;
  });
  bounds[bounds.length - 1] = 1;
  return bounds;
}

export function pick(bounds: Float64Array, u: number): number {
  let i = 0;
  while (u >= bounds[i] && i < bounds.length - 1) i++;
  return i;
}

const HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
export const hex8 = (x: number): string =>
  HEX2[x >>> 24] + HEX2[(x >>> 16) & 255] + HEX2[(x >>> 8) & 255] + HEX2[x & 255];
