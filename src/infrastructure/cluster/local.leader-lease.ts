import { LeaderLease, LeaderTask, LeaderTerm, Leadership } from './leader-lease.port';

/**
 * Every task leads at once, for ever: one process owns its stores (memory read models, embedded
 * chDB), so there is nobody to elect. Keeps the embedded setup exactly as it was before leases.
 */
export class LocalLeaderLease implements LeaderLease {
  constructor(private readonly onError: (name: string, error: unknown) => void = () => undefined) {}

  runWhileLeader(name: string, task: LeaderTask): Leadership {
    const controller = new AbortController();
    const term: LeaderTerm = {
      name,
      fencingToken: 0,
      leaseValue: 'local',
      signal: controller.signal,
      resign: () => controller.abort(),
    };
    let leading = true;
    const running = task(term)
      .catch((error: unknown) => this.onError(name, error))
      .finally(() => (leading = false));
    return {
      get leading() {
        return leading;
      },
      async stop() {
        controller.abort();
        await running;
      },
    };
  }
}
