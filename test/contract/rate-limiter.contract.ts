import { randomUUID } from 'node:crypto';
import type { RateLimitDecision, RateLimiter } from '../../src/rate-limiting/rate-limiter.port';

export interface RateLimiterHarness {
  /** A limiter on a namespace no other case uses. */
  create(): Promise<RateLimiter>;
  /** Once, after every case: removes test data, closes connections. */
  teardown(): Promise<void>;
}

/** Long enough that a boundary almost never cuts a burst; `inOneWindow` retries when one does. */
const LONG_WINDOW = 3600;

/**
 * Runs `burst` on fresh buckets until all its decisions fall in one window, so a window boundary
 * passing mid-test cannot make the counts look wrong.
 */
export async function inOneWindow(
  burst: (bucket: string) => Promise<RateLimitDecision[]>,
): Promise<RateLimitDecision[]> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const decisions = await burst(`b-${randomUUID()}`);
    if (new Set(decisions.map((d) => d.resetAtSeconds)).size === 1) return decisions;
  }
  throw new Error('every attempt straddled a window boundary');
}

async function sequential(limiter: RateLimiter, bucket: string, n: number, limit: number, window: number) {
  const decisions: RateLimitDecision[] = [];
  for (let i = 0; i < n; i++) decisions.push(await limiter.consume(bucket, limit, window));
  return decisions;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function describeRateLimiterContract(adapter: string, harness: RateLimiterHarness): void {
  describe(`RateLimiter contract (${adapter})`, () => {
    afterAll(() => harness.teardown());

    it('allows exactly limit requests in a window and refuses the (limit+1)th', async () => {
      const limiter = await harness.create();
      const decisions = await inOneWindow((bucket) => sequential(limiter, bucket, 7, 5, LONG_WINDOW));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
      expect(decisions.every((d) => d.limit === 5)).toBe(true);
    });

    it('counts remaining down by one per allowed request and reports 0 once refused', async () => {
      const limiter = await harness.create();
      const decisions = await inOneWindow((bucket) => sequential(limiter, bucket, 5, 3, LONG_WINDOW));
      expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0, 0]);
    });

    it('reports the end of the current epoch-aligned window as the reset time', async () => {
      const limiter = await harness.create();
      for (const window of [1, 60, 3600, 86_400]) {
        const before = Math.floor(Date.now() / 1000);
        const { resetAtSeconds } = await limiter.consume(`b-${randomUUID()}`, 10, window);
        const after = Math.floor(Date.now() / 1000);
        expect(resetAtSeconds % window).toBe(0);
        // Redis's clock may differ from this process's by a little; allow a second either way.
        expect(resetAtSeconds).toBeGreaterThan(before - 1);
        expect(resetAtSeconds).toBeLessThanOrEqual(after + window + 1);
      }
    });

    it('counts each bucket on its own', async () => {
      const limiter = await harness.create();
      await inOneWindow(async (bucket) => {
        const first = await sequential(limiter, `${bucket}:a`, 3, 2, LONG_WINDOW);
        const second = await sequential(limiter, `${bucket}:b`, 2, 2, LONG_WINDOW);
        expect(first.map((d) => d.allowed)).toEqual([true, true, false]);
        expect(second.map((d) => d.allowed)).toEqual([true, true]);
        return [...first, ...second];
      });
    });

    it('starts a fresh count when the next window begins', async () => {
      const limiter = await harness.create();
      const bucket = `b-${randomUUID()}`;
      let decision = await limiter.consume(bucket, 1, 1);
      // Exhaust one window (retrying if the first request was the last of its window).
      while (decision.allowed) decision = await limiter.consume(bucket, 1, 1);
      const exhaustedWindowEnd = decision.resetAtSeconds;
      // Ask until the limiter's own clock (Redis's, for that adapter) is in a later window; refused
      // requests do not count, so asking does not use up the next window.
      let next = decision;
      while (next.resetAtSeconds <= exhaustedWindowEnd) {
        await pause(100);
        next = await limiter.consume(bucket, 1, 1);
      }
      expect(next).toMatchObject({ allowed: true, remaining: 0 });
      expect(next.resetAtSeconds).toBeGreaterThan(exhaustedWindowEnd);
    });

    it('does not count refused requests: raising the limit mid-window admits the difference', async () => {
      const limiter = await harness.create();
      const decisions = await inOneWindow(async (bucket) => [
        ...(await sequential(limiter, bucket, 4, 2, LONG_WINDOW)),
        ...(await sequential(limiter, bucket, 2, 3, LONG_WINDOW)),
      ]);
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, false, false, true, false]);
    });

    it('refuses every request when the limit is 0', async () => {
      const limiter = await harness.create();
      const decision = await limiter.consume(`b-${randomUUID()}`, 0, 60);
      expect(decision).toMatchObject({ allowed: false, limit: 0, remaining: 0 });
    });

    it('rejects a window that is not a positive whole number of seconds', async () => {
      const limiter = await harness.create();
      await expect(limiter.consume('b', 10, 0)).rejects.toThrow(RangeError);
      await expect(limiter.consume('b', 10, 1.5)).rejects.toThrow(RangeError);
      await expect(limiter.consume('b', -1, 60)).rejects.toThrow(RangeError);
    });

    it('allows exactly limit of 1000 concurrent requests', async () => {
      const limiter = await harness.create();
      const decisions = await inOneWindow((bucket) =>
        Promise.all(Array.from({ length: 1000 }, () => limiter.consume(bucket, 300, LONG_WINDOW))),
      );
      const allowed = decisions.filter((d) => d.allowed);
      expect(allowed.length).toBe(300);
      // Every allowed request got its own slot in the window.
      expect(new Set(allowed.map((d) => d.remaining)).size).toBe(300);
    });
  });
}
