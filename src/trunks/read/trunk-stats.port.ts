/** Per-trunk figures of the trunk list, for the UTC day so far. */
export interface TrunkStats {
  calls_today: number;
  /** 0-100, 2 decimals; 0 with no calls. */
  success_rate: number;
  avg_latency_ms: number;
}

/** Answered from the call-record store in one query per page. */
export interface TrunkStatsReader {
  statsFor(accountId: string, trunkIds: string[], now: Date): Promise<Map<string, TrunkStats>>;
}

export const TRUNK_STATS_READER = Symbol('TrunkStatsReader');

export const NO_CALLS: TrunkStats = Object.freeze({ calls_today: 0, success_rate: 0, avg_latency_ms: 0 });
