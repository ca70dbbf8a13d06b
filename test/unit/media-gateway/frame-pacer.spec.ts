import {
  FramePacer,
  FrameSchedule,
  ManualClock,
  PacerDriver,
  ProcessingMeter,
  type PacedFrameInfo,
} from '../../../media-gateway/src/media';

/** A pacer on a hand-moved clock, driven by tick(): no timers, so timing is exact. */
function pacer(options: { capacityFrames?: number; maxCatchUpSlots?: number } = {}) {
  const clock = new ManualClock(1000);
  const sent: Array<{ first: number; info: PacedFrameInfo }> = [];
  const idle: number[] = [];
  const marks: string[] = [];
  const p = new FramePacer({
    clock,
    onFrame: (frame, info) => sent.push({ first: frame[0], info }),
    onIdle: (slot) => idle.push(slot),
    onMark: (name, outcome) => marks.push(`${name}:${outcome}`),
    // The test drives tick() itself; start() must not leave a timer behind.
    timers: { setTimeout: () => 0, clearTimeout: () => undefined },
    ...options,
  });
  return { p, clock, sent, idle, marks };
}

const frame = (n: number): Uint8Array => new Uint8Array(160).fill(n);

describe('frame schedule', () => {
  it('places slot n at start + 20n whatever the lateness of earlier slots (no drift)', () => {
    const s = new FrameSchedule(100);
    expect([s.slotTime(0), s.slotTime(50)]).toEqual([100, 1100]);
    expect([s.dueSlot(99), s.dueSlot(100), s.dueSlot(139.9), s.dueSlot(140)]).toEqual([-1, 0, 1, 2]);
    expect([s.delayUntil(3, 150), s.lateness(3, 175)]).toEqual([10, 15]);
  });
});

describe('frame pacer', () => {
  it('given three queued frames, then one leaves per 20 ms slot in order, and idle slots are reported', () => {
    const { p, clock, sent, idle } = pacer();
    [1, 2, 3].forEach((n) => p.push(frame(n), 1000));
    p.start();
    p.tick(); // slot 0 at 1000
    clock.advance(20);
    p.tick();
    clock.advance(25); // 1045: slot 2 due at 1040, 5 ms late
    p.tick();
    clock.advance(15); // 1060: slot 3, nothing queued
    p.tick();
    p.stop();
    expect(sent.map((s) => [s.first, s.info.slot, s.info.dueMs, s.info.latenessMs])).toEqual([
      [1, 0, 1000, 0],
      [2, 1, 1020, 0],
      [3, 2, 1040, 5],
    ]);
    expect(idle).toEqual([3]);
    expect(p.stats).toMatchObject({ sent: 3, late: 0, maxLatenessMs: 5, queued: 0 });
  });

  it('measures held time beyond pacing: a frame pushed after its slot was due counts from its push', () => {
    const { p, clock, sent } = pacer();
    p.start();
    p.tick();
    clock.advance(30); // 1030: slot 1 was due at 1020
    p.push(frame(9), 1028);
    p.tick();
    expect(sent[0].info).toMatchObject({ slot: 1, latenessMs: 10, heldMs: 2 });
  });

  it('drops frames past its capacity and counts them (an agent faster than real time)', () => {
    const { p } = pacer({ capacityFrames: 4 });
    const accepted = Array.from({ length: 10 }, (_, i) => p.push(frame(i)));
    expect(accepted.filter(Boolean)).toHaveLength(4);
    expect(p.stats).toMatchObject({ dropped: 6, queued: 4 });
  });

  it('reports a mark once every frame before it has been sent, and flush reports pending marks as cleared', () => {
    const { p, clock, marks } = pacer();
    p.pushMark('early');
    p.push(frame(1));
    p.push(frame(2));
    p.pushMark('after-two');
    p.push(frame(3));
    p.pushMark('after-three');
    p.start();
    p.tick();
    expect(marks).toEqual(['early:played']);
    clock.advance(20);
    p.tick();
    expect(marks).toEqual(['early:played', 'after-two:played']);
    expect(p.flush()).toBe(1);
    expect(marks).toEqual(['early:played', 'after-two:played', 'after-three:cleared']);
    expect(p.stats).toMatchObject({ flushed: 1, queued: 0 });
  });

  it('after a stall sends at most maxCatchUpSlots overdue frames and skips the older slots as idle', () => {
    const { p, clock, sent, idle } = pacer({ maxCatchUpSlots: 2 });
    for (let i = 0; i < 10; i++) p.push(frame(i));
    p.start(); // sends slot 0 at once
    clock.advance(100); // slots 1..5 due
    p.tick();
    expect(sent.map((s) => [s.info.slot, s.first])).toEqual([
      [0, 0],
      [4, 1],
      [5, 2],
    ]);
    expect(idle).toEqual([1, 2, 3]);
    expect(p.stats.skippedSlots).toBe(3);
  });

  it('pads a short frame with mu-law silence', () => {
    const { p, sent } = pacer();
    p.push(Uint8Array.of(7, 7));
    p.start();
    p.tick();
    expect(sent[0].first).toBe(7);
  });

  it('drives itself with timers on the real clock until stopped', async () => {
    const clockTimes: number[] = [];
    const p = new FramePacer({
      clock: { nowMs: () => performance.now() },
      onFrame: (_f, info) => clockTimes.push(info.slot),
    });
    for (let i = 0; i < 5; i++) p.push(frame(i));
    p.start();
    while (p.queued > 0) await new Promise((r) => setTimeout(r, 10));
    p.stop();
    // Every frame left, in slot order (a stalled machine may skip slots, never reorder or lose frames).
    expect(clockTimes).toHaveLength(5);
    expect([...clockTimes].sort((x, y) => x - y)).toEqual(clockTimes);
    expect(new Set(clockTimes).size).toBe(5);
  });
});

describe('processing meter', () => {
  it('gives mean, max and percentiles of what it was given, and merges', () => {
    const a = new ProcessingMeter();
    for (let i = 1; i <= 100; i++) a.add(i / 10); // 0.1 .. 10 ms
    expect(a.mean()).toBeCloseTo(5.05, 5);
    expect(a.percentile(50)).toBeCloseTo(5.05, 1);
    expect(a.percentile(99)).toBeCloseTo(9.95, 1);
    const b = new ProcessingMeter();
    b.add(80);
    a.merge(b);
    expect([a.count, a.maxMs, a.percentile(100)]).toEqual([101, 80, 80]);
    expect(new ProcessingMeter().mean()).toBeNull();
  });
});

describe('pacer driver', () => {
  /** Timers a test fires by hand: the driver's one timer is visible. */
  function handTimers() {
    const pending: Array<{ fn: () => void; ms: number }> = [];
    return {
      pending,
      timers: {
        setTimeout: (fn: () => void, ms: number) => pending.push({ fn, ms }),
        clearTimeout: () => pending.splice(0),
      },
      fire: () => pending.splice(0).forEach((t) => t.fn()),
    };
  }

  it('drives every pacer from one timer on one grid, and stops the timer with the last pacer', () => {
    const clock = new ManualClock(0);
    const { pending, timers, fire } = handTimers();
    const driver = new PacerDriver(clock, 20, timers);
    const sent: string[] = [];
    const make = (name: string) => new FramePacer({ clock, onFrame: (_f, info) => sent.push(`${name}@${info.dueMs}`) });
    const a = make('a');
    const b = make('b');
    a.push(frame(1));
    a.push(frame(2));
    driver.add(a); // slot 0 due at 0: sent at once
    expect(pending.map((t) => t.ms)).toEqual([20]);
    clock.set(20);
    fire();
    clock.set(27);
    b.push(frame(3));
    driver.add(b); // joins at the slot due now (1, due at 20), 7 ms late
    expect(pending.map((t) => t.ms)).toEqual([20]); // still the one timer, armed for slot 2 at 40
    clock.set(40);
    fire();
    expect(sent).toEqual(['a@0', 'a@20', 'b@20']);
    expect(pending).toHaveLength(1);
    driver.remove(a);
    driver.remove(b);
    expect(pending).toHaveLength(0);
    expect(driver.size).toBe(0);
  });

  it('counts a wake-up that came more than a frame late', () => {
    const clock = new ManualClock(0);
    const { timers, fire } = handTimers();
    const driver = new PacerDriver(clock, 20, timers);
    driver.add(new FramePacer({ clock, onFrame: () => undefined }));
    clock.set(75);
    fire();
    expect(driver.lateWakeups).toBe(1);
  });
});
