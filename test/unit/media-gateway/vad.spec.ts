import {
  EnergyVad,
  VAD_DEFAULTS,
  mulawEncode,
  mulawLevelDbfs,
  resolveVad,
  speechProbability,
  type VadEvent,
} from '../../../media-gateway/src/media';

/** A 20 ms mu-law frame of a 300 Hz tone at `dbfs` (RMS), or digital silence for -Infinity. */
function frame(dbfs: number): Uint8Array {
  const amplitude = dbfs === -Infinity ? 0 : Math.SQRT2 * 32768 * 10 ** (dbfs / 20);
  const pcm = Int16Array.from({ length: 160 }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * 300 * i) / 8000)),
  );
  return mulawEncode(pcm, new Uint8Array(160));
}

/** Feeds `[level, frames]` runs of 20 ms frames starting at t=0; returns the events with their frame-end time. */
function run(vad: EnergyVad, runs: Array<[number, number]>): VadEvent[] {
  const events: VadEvent[] = [];
  let t = 0;
  for (const [level, count] of runs) {
    const f = frame(level);
    for (let i = 0; i < count; i++) {
      t += 20;
      const ev = vad.pushMulaw(f, t);
      if (ev) events.push(ev);
    }
  }
  return events;
}

describe('energy VAD', () => {
  it('measures a tone at the level it was made at', () => {
    expect(mulawLevelDbfs(frame(-20))).toBeCloseTo(-20, 0);
    expect(mulawLevelDbfs(frame(-Infinity))).toBe(-Infinity);
    expect([speechProbability(-60), speechProbability(-40), speechProbability(-10)]).toEqual([0, 0.5, 1]);
  });

  it('takes the trunk settings and fills what is missing with the documented defaults', () => {
    expect(resolveVad(null)).toEqual(VAD_DEFAULTS);
    expect(resolveVad({ threshold: 0.8, silence_duration_ms: 700 })).toEqual({
      threshold: 0.8,
      prefixPaddingMs: 300,
      silenceDurationMs: 700,
    });
  });

  it('given 1 s of speech between silences, then speech starts at its first frame and ends at its last', () => {
    const events = run(new EnergyVad(resolveVad({ silence_duration_ms: 400 })), [
      [-70, 10],
      [-25, 50],
      [-70, 30],
    ]);
    expect(events).toEqual([
      { type: 'speech_start', atMs: 200, paddedStartMs: -100 },
      { type: 'speech_end', atMs: 1200, detectedAtMs: 1600, durationMs: 1000 },
    ]);
  });

  it('keeps one utterance through pauses shorter than the silence duration', () => {
    const events = run(new EnergyVad(resolveVad({ silence_duration_ms: 500 })), [
      [-25, 20],
      [-70, 20],
      [-25, 20],
      [-70, 30],
    ]);
    expect(events.map((e) => e.type)).toEqual(['speech_start', 'speech_end']);
    expect(events[1]).toMatchObject({ atMs: 1200, durationMs: 1200 });
  });

  it('ignores a single loud frame (a click) and speech under the threshold', () => {
    expect(
      run(new EnergyVad(), [
        [-10, 1],
        [-70, 40],
      ]),
    ).toEqual([]);
    expect(
      run(new EnergyVad(resolveVad({ threshold: 0.9 })), [
        [-30, 50],
        [-70, 40],
      ]),
    ).toEqual([]);
  });

  it('pads a start by prefix_padding_ms but never back into the previous utterance', () => {
    const events = run(new EnergyVad(resolveVad({ prefix_padding_ms: 300, silence_duration_ms: 200 })), [
      [-25, 10],
      [-70, 15],
      [-25, 10],
      [-70, 15],
    ]);
    expect(events.filter((e) => e.type === 'speech_start')).toEqual([
      { type: 'speech_start', atMs: 0, paddedStartMs: -300 },
      { type: 'speech_start', atMs: 500, paddedStartMs: 200 },
    ]);
  });

  it('ends an utterance still open at call end', () => {
    const vad = new EnergyVad();
    run(vad, [[-25, 10]]);
    expect(vad.flush(1000)).toEqual({ type: 'speech_end', atMs: 200, detectedAtMs: 1000, durationMs: 200 });
    expect(vad.flush(1000)).toBeNull();
  });
});
