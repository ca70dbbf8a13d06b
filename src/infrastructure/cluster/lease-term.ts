import { LeaderTerm } from './leader-lease.port';

/** Ends of a term that are no fault: the instance stops, or the task returned. */
const NORMAL_ENDS = new Set(['instance stopping', 'task ended']);

/**
 * A term won with `token`; its signal aborts at the first resign(), which reports once whether it
 * ended normally ('released') or was lost.
 */
export function newTerm(
  name: string,
  instanceId: string,
  token: number,
  onEnd: (event: 'released' | 'lost', reason: string) => void,
): LeaderTerm {
  const controller = new AbortController();
  return {
    name,
    fencingToken: token,
    leaseValue: `${instanceId}#${token}`,
    signal: controller.signal,
    resign: (reason) => {
      if (!controller.signal.aborted) onEnd(NORMAL_ENDS.has(reason) ? 'released' : 'lost', reason);
      controller.abort();
    },
  };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
