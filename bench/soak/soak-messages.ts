/** IPC between the soak bench and its app child. */
export interface SoakReady {
  type: 'ready';
  port: number;
  cert: string;
  accountKey: string;
  ingestKey: string;
}

export interface SoakStatsRequest {
  type: 'soak-stats';
}

/**
 * The server process's own view of one interval; the event-loop histogram and the memory samples
 * restart after each. Memory is sampled every second: one reading at the minute's edge lands
 * anywhere on the garbage collector's saw-tooth (±30% here), the median of sixty does not.
 */
export interface SoakStatsReply {
  type: 'soak-stats';
  /** Median of the interval's once-a-second RSS samples. */
  rssBytes: number;
  rssMaxBytes: number;
  /** Median of the interval's heap-used samples. */
  heapUsedBytes: number;
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}
