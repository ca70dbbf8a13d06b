import type { FailureClass } from '../../shared/failure-taxonomy';

/** Failure classes that say the trunk's agent or its routing failed, not the caller or the carrier. */
export const HEALTH_FAILURE_CLASSES: readonly FailureClass[] = [
  'routing',
  'agent_timeout',
  'agent_error',
  'agent_unreachable',
];
/** This many most recent calls, all failing that way, put a trunk in `error`. */
export const TRUNK_FAILURES_FOR_ERROR = 5;
/** Calls that started longer ago than this say nothing of the trunk's health now. */
export const HEALTH_WINDOW_MS = 24 * 3_600_000;

export const isHealthFailure = (status: string, failureClass: string | null): boolean =>
  status === 'failed' && failureClass !== null && (HEALTH_FAILURE_CLASSES as readonly string[]).includes(failureClass);

export interface RecentCall {
  call_id: string;
  status: string;
  failure_class: string;
  answered: number | string;
}

/**
 * unhealthy: the N most recent calls all failed for the agent or routing; healthy: the most recent
 * call was answered; null: neither (not enough failures yet, or a call that says nothing, such as a
 * caller who hung up while ringing).
 */
export function verdictOf(newestFirst: RecentCall[]): { healthy: boolean; reason: string; callIds: string[] } | null {
  const latest = newestFirst[0];
  if (!latest) return null;
  if (Number(latest.answered) === 1)
    return { healthy: true, reason: `call ${latest.call_id} was answered`, callIds: [latest.call_id] };
  const failing = newestFirst.filter((c) => isHealthFailure(c.status, c.failure_class || null));
  if (newestFirst.length < TRUNK_FAILURES_FOR_ERROR || failing.length < newestFirst.length) return null;
  const classes = [...new Set(failing.map((c) => c.failure_class))].sort().join(', ');
  return {
    healthy: false,
    reason: `the last ${failing.length} calls failed (${classes})`,
    callIds: failing.map((c) => c.call_id).reverse(),
  };
}
