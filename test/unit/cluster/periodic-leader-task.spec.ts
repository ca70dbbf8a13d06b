import { getEventListeners } from 'node:events';
import {
  LeaderLease,
  LeaderTerm,
  runPeriodicallyWhileLeader,
} from '../../../src/infrastructure/cluster/leader-lease.port';

/** A lease that makes this process the leader at once, with a term the test controls. */
function leaseWith(controller: AbortController): { lease: LeaderLease; ended: Promise<void> } {
  let ended!: Promise<void>;
  const lease: LeaderLease = {
    runWhileLeader(name, task) {
      const term: LeaderTerm = {
        name,
        fencingToken: 1,
        leaseValue: 'test',
        signal: controller.signal,
        resign: () => controller.abort(),
      };
      ended = task(term);
      return { leading: true, stop: async () => (controller.abort(), await ended) };
    },
  };
  return {
    lease,
    get ended() {
      return ended;
    },
  };
}

describe('runPeriodicallyWhileLeader', () => {
  it('runs the job every interval, survives its failures, and leaves no listener on the term per round', async () => {
    const controller = new AbortController();
    const { lease } = leaseWith(controller);
    const errors: string[] = [];
    let runs = 0;
    const leadership = runPeriodicallyWhileLeader(
      lease,
      'job',
      2,
      async () => {
        runs++;
        if (runs % 5 === 0) throw new Error(`round ${runs}`);
      },
      (error) => errors.push(error.message),
    );
    let listeners: number;
    try {
      while (runs < 40) await new Promise((resolve) => setTimeout(resolve, 5));
      listeners = getEventListeners(controller.signal, 'abort').length;
    } finally {
      await leadership.stop();
    }
    expect(listeners).toBeLessThanOrEqual(1);
    const after = runs;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(runs).toBe(after);
    expect(errors.slice(0, 3)).toEqual(['round 5', 'round 10', 'round 15']);
  });
});
