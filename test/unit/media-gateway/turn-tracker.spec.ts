import { TurnTracker, recordTurns } from '../../../media-gateway/src/media';

/** Agent frames sent every 20 ms from `fromMs`, `count` of them. */
function agentSpeaks(tracker: TurnTracker, fromMs: number, count: number): void {
  for (let i = 0; i < count; i++) tracker.agentFrameSent(fromMs + 20 * i);
}

describe('turn tracker', () => {
  it('given a greeting, two questions and two answers, then five turns with processing times from speech end', () => {
    const tracker = new TurnTracker();
    agentSpeaks(tracker, 0, 50); // greeting 0-1000
    tracker.callerSpeechStarted(2000);
    tracker.callerSpeechEnded(3500);
    agentSpeaks(tracker, 4300, 25); // 800 ms later, 500 ms long
    tracker.callerSpeechStarted(6000);
    tracker.callerSpeechEnded(6400);
    agentSpeaks(tracker, 7000, 10);
    const summary = tracker.finish(9000);
    expect(recordTurns(summary.turns)).toEqual([
      { turn_number: 1, speaker: 'agent', duration_ms: 1000, processing_time_ms: 0 },
      { turn_number: 2, speaker: 'caller', duration_ms: 1500, processing_time_ms: 0 },
      { turn_number: 3, speaker: 'agent', duration_ms: 500, processing_time_ms: 800 },
      { turn_number: 4, speaker: 'caller', duration_ms: 400, processing_time_ms: 0 },
      { turn_number: 5, speaker: 'agent', duration_ms: 200, processing_time_ms: 600 },
    ]);
    expect(summary.ai_latency_ms).toBe(700);
  });

  it('marks an agent turn interrupted when the caller barges in, and keeps its queued frames in it until clear', () => {
    const tracker = new TurnTracker();
    tracker.callerSpeechStarted(0);
    tracker.callerSpeechEnded(1000);
    agentSpeaks(tracker, 1500, 30); // would play to 2100
    expect(tracker.agentSpeaking(1800)).toBe(true);
    tracker.callerSpeechStarted(1800);
    agentSpeaks(tracker, 2100, 3); // frames still queued before the agent's clear arrives
    tracker.agentCleared(2170);
    tracker.callerSpeechEnded(2600);
    agentSpeaks(tracker, 3000, 5);
    const { turns, ai_latency_ms } = tracker.finish(4000);
    expect(turns.map((t) => [t.speaker, t.duration_ms, t.processing_time_ms, t.interrupted])).toEqual([
      ['caller', 1000, 0, false],
      ['agent', 660, 500, true], // to the end of the last frame sent before the clear
      ['caller', 800, 0, false],
      ['agent', 100, 400, false],
    ]);
    expect(ai_latency_ms).toBe(450);
    expect(recordTurns(turns, true)[1]).toMatchObject({ interrupted: true });
  });

  it('splits agent audio into two turns at a gap longer than agentGapMs, the second not following caller speech', () => {
    const tracker = new TurnTracker({ agentGapMs: 300 });
    tracker.callerSpeechStarted(0);
    tracker.callerSpeechEnded(500);
    agentSpeaks(tracker, 900, 10); // ends 1100
    agentSpeaks(tracker, 1300, 10); // gap 200: same turn
    agentSpeaks(tracker, 2000, 5); // gap 500: new turn
    const { turns, ai_latency_ms } = tracker.finish(3000);
    expect(turns.map((t) => [t.speaker, t.duration_ms, t.processing_time_ms])).toEqual([
      ['caller', 500, 0],
      ['agent', 600, 400],
      ['agent', 100, 0],
    ]);
    expect(ai_latency_ms).toBe(400);
  });

  it('closes a caller turn still open at call end and has no AI latency when the agent never answered', () => {
    const tracker = new TurnTracker();
    tracker.callerSpeechStarted(100);
    expect(tracker.finish(900)).toEqual({
      turns: [
        {
          turn_number: 1,
          speaker: 'caller',
          duration_ms: 800,
          processing_time_ms: 0,
          interrupted: false,
          startMs: 100,
        },
      ],
      ai_latency_ms: null,
    });
  });

  it('counts the gap in empty pacer slots (idle-slots): a stall that delays queued frames does not split the answer', () => {
    const tracker = new TurnTracker({ gapBy: 'idle-slots', agentGapMs: 300 });
    tracker.callerSpeechStarted(0);
    tracker.callerSpeechEnded(1000);
    tracker.agentFrameSent(1500);
    // The process stalls 900 ms; the pacer skipped those slots with audio queued (no agentIdle), then catches up.
    agentSpeaks(tracker, 2400, 49);
    for (let i = 0; i < 15; i++) tracker.agentIdle(); // 300 ms of empty slots: not more than the gap
    agentSpeaks(tracker, 3700, 5);
    for (let i = 0; i < 16; i++) tracker.agentIdle(); // 320 ms: the turn ends
    agentSpeaks(tracker, 4500, 5);
    const { turns } = tracker.finish(6000);
    expect(turns.map((t) => [t.speaker, t.duration_ms, t.processing_time_ms])).toEqual([
      ['caller', 1000, 0],
      ['agent', 2300, 500],
      ['agent', 100, 0],
    ]);
  });

  it('does not count a caller who answers after the agent finished as barging in', () => {
    for (const gapBy of ['time', 'idle-slots'] as const) {
      const tracker = new TurnTracker({ gapBy });
      agentSpeaks(tracker, 0, 10); // audio until 200
      tracker.agentIdle();
      tracker.agentIdle();
      tracker.agentIdle();
      expect(tracker.agentSpeaking(260)).toBe(false);
      tracker.callerSpeechStarted(260);
      tracker.callerSpeechEnded(900);
      expect(tracker.finish(1000).turns.map((t) => [t.speaker, t.interrupted])).toEqual([
        ['agent', false],
        ['caller', false],
      ]);
    }
  });
});
