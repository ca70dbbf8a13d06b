import { ReceiveStats } from '../../../media-gateway/src/media';

/** Feeds packets 20 ms apart (160 timestamp units) with arrival offsets `jitterMs[i]`. */
function feed(stats: ReceiveStats, seqs: number[], jitterMs: (i: number) => number = () => 0, firstSeq = 0): void {
  seqs.forEach((seq, i) => {
    const n = (seq - firstSeq + 65536) % 65536;
    stats.onPacket(seq, (1000 + n * 160) >>> 0, 5000 + n * 20 + jitterMs(i));
  });
}

describe('receive statistics (RFC 3550 A.1, A.3, A.8)', () => {
  it('given packets on time, then no loss and no jitter', () => {
    const stats = new ReceiveStats();
    feed(
      stats,
      Array.from({ length: 100 }, (_, i) => i),
    );
    expect(stats.snapshot()).toMatchObject({ received: 100, expected: 100, lost: 0, lossPercent: 0, jitterMs: 0 });
  });

  it('counts 5 lost packets of 100 across the 16-bit sequence wrap', () => {
    const stats = new ReceiveStats();
    const seqs = Array.from({ length: 100 }, (_, i) => (65500 + i) % 65536).filter(
      (_, i) => ![3, 20, 40, 41, 90].includes(i),
    );
    feed(stats, seqs, () => 0, 65500);
    const s = stats.snapshot();
    expect([s.expected, s.received, s.lost, s.lossPercent]).toEqual([100, 95, 5, 5]);
    expect(s.extendedHighestSequence).toBe(65536 + (65500 + 99 - 65536));
  });

  it('does not count a reordered or duplicated packet as loss below zero', () => {
    const stats = new ReceiveStats();
    feed(stats, [0, 1, 3, 2, 4, 4, 5]);
    expect(stats.snapshot()).toMatchObject({ expected: 6, received: 7, lost: 0 });
  });

  it('converges on the A.8 estimate: arrivals alternating ±4 ms around their slot give jitter near 8 ms', () => {
    const stats = new ReceiveStats();
    feed(
      stats,
      Array.from({ length: 400 }, (_, i) => i),
      (i) => (i % 2 === 0 ? 4 : -4),
    );
    // |D| is 8 ms every packet, so J → 8 ms (J += (|D| − J)/16).
    expect(stats.snapshot().jitterMs).toBeCloseTo(8, 1);
    expect(stats.jitterTimestampUnits).toBe(63);
  });

  it('gives the fraction lost of each report interval (A.3)', () => {
    const stats = new ReceiveStats();
    feed(
      stats,
      Array.from({ length: 50 }, (_, i) => i).filter((i) => i % 10 !== 5),
    );
    expect(stats.intervalLoss()).toEqual({ fractionLost: Math.floor((5 * 256) / 50), cumulativeLost: 5 });
    feed(
      stats,
      Array.from({ length: 50 }, (_, i) => 50 + i),
    );
    expect(stats.intervalLoss()).toEqual({ fractionLost: 0, cumulativeLost: 5 });
  });

  it('ignores one stray packet far ahead, and follows a source that restarts its sequence', () => {
    const stats = new ReceiveStats();
    feed(stats, [0, 1, 2]);
    expect(stats.onPacket(40000, 0, 6000)).toBe('bad_jump');
    expect(stats.onPacket(3, 1000 + 3 * 160, 5060)).toBe('ok');
    expect(stats.onPacket(30000, 0, 7000)).toBe('bad_jump');
    expect(stats.onPacket(30001, 160, 7020)).toBe('restarted');
    stats.onPacket(30003, 480, 7060); // 30002 lost in the new sequence
    // The old sequence (0-3, all received) still counts: 4 + 3 expected, 4 + 2 received.
    expect(stats.snapshot()).toMatchObject({ expected: 7, received: 6, lost: 1 });
  });
});
