/**
 * How late the mock agents' timers fired, in ms, in the order they fired. A loaded machine delays
 * the mock agent itself: an answer due D after the caller's speech ended leaves D + lateness
 * later, and the media gateway rightly measures that. Tests read the entries of one call (from
 * `replyLateness.length` before it) to know how much later than D the agent really answered.
 */
export const replyLateness: number[] = [];

/** setTimeout that records its lateness and is tracked in `timers` (cleared when the mock closes). */
export function laterTracked(timers: Set<NodeJS.Timeout>, fn: () => void, ms: number): void {
  const due = Date.now() + ms;
  const timer = setTimeout(() => {
    timers.delete(timer);
    replyLateness.push(Math.max(0, Date.now() - due));
    fn();
  }, ms);
  timers.add(timer);
}

/** The largest lateness recorded since `mark` (replyLateness.length taken before the call). */
export const latenessSince = (mark: number): number => Math.max(0, ...replyLateness.slice(mark));
