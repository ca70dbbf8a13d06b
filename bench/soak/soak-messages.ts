/**
 * The server process's own view of one interval; the event-loop histogram and the memory samples
 * restart after each. Memory is sampled every second: one reading at the minute's edge lands
 * anywhere on the garbage collector's saw-tooth (±30% here), the median of sixty does not.
 */
export interface SoakStats {
  /** Median of the interval's once-a-second RSS samples. */
  rssBytes: number;
  rssMaxBytes: number;
  /** Median of the interval's heap-used samples. */
  heapUsedBytes: number;
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

/** IPC between the soak bench and its app child, beside the app's `ready`. */
export interface SoakOps {
  'soak-stats': [undefined, SoakStats];
}
