import { offThreadReadable, rebuildInWorker } from '../../../src/cli/read-models-worker';

describe('projections:rebuild: where the read-model runner replays (REBUILD_READ_MODELS_THREAD)', () => {
  const postgres = 'postgres://127.0.0.1:5432/test';

  it('never in a worker on embedded PGlite (no event store URL), whatever is asked', () => {
    for (const choice of ['auto', 'worker', 'main'] as const) {
      expect(rebuildInWorker(choice, null, 16)).toBe(false);
      expect(rebuildInWorker(choice, undefined, 16)).toBe(false);
    }
  });

  it('auto: in a worker on a server event store only with a core to spare (4 or more)', () => {
    expect(rebuildInWorker('auto', postgres, 2)).toBe(false);
    expect(rebuildInWorker('auto', postgres, 3)).toBe(false);
    expect(rebuildInWorker('auto', postgres, 4)).toBe(true);
    expect(rebuildInWorker('auto', 'esdb://127.0.0.1:2113?tls=false', 8)).toBe(true);
  });

  it('worker and main as asked on a server event store', () => {
    expect(rebuildInWorker('worker', postgres, 2)).toBe(true);
    expect(rebuildInWorker('main', postgres, 16)).toBe(false);
  });

  it('knows the server event stores by their URL scheme', () => {
    expect(offThreadReadable('postgresql://db/x')).toBe(true);
    expect(offThreadReadable('kurrentdb+discover://cluster:2113')).toBe(true);
    expect(offThreadReadable('file:///var/lib/trunkline')).toBe(false);
    expect(offThreadReadable('')).toBe(false);
  });
});
