import { projectionReadiness, READY_MAX_LAG_MS } from '../../../src/access/health.controller';

describe('readiness of the read models', () => {
  it('is ok when every event is applied', () => {
    expect(projectionReadiness({ caughtUp: true, lagMs: 0 }, false)).toBe('ok');
  });

  it('stays ok while a live write waits a moment to be applied (no flapping under steady writes)', () => {
    expect(projectionReadiness({ caughtUp: false, lagMs: 12 }, false)).toBe('ok');
    expect(projectionReadiness({ caughtUp: false, lagMs: READY_MAX_LAG_MS }, false)).toBe('ok');
  });

  it('is catching up once the oldest unapplied event has waited past the bound (a replay or a stalled projection)', () => {
    expect(projectionReadiness({ caughtUp: false, lagMs: READY_MAX_LAG_MS + 1 }, false)).toBe('catching_up');
    expect(projectionReadiness({ caughtUp: false, lagMs: 86_400_000 }, false)).toBe('catching_up');
  });

  it('is catching up while the read models are being restored, even with no lag seen yet', () => {
    expect(projectionReadiness({ caughtUp: true, lagMs: 0 }, true)).toBe('catching_up');
  });

  it('is an error when the projections could not be asked', () => {
    expect(projectionReadiness(null, false)).toBe('error');
  });
});
