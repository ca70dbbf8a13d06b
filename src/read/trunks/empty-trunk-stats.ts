import { Injectable } from '@nestjs/common';
import { NO_CALLS, TrunkStats, TrunkStatsReader } from './trunk-stats.port';

/**
 * Until call records are ingested (the calls and analytics work), no trunk has calls: these
 * zeros are the true figures, not a placeholder for missing data.
 */
@Injectable()
export class EmptyTrunkStats implements TrunkStatsReader {
  async statsFor(_accountId: string, trunkIds: string[]): Promise<Map<string, TrunkStats>> {
    return new Map(trunkIds.map((id) => [id, { ...NO_CALLS }]));
  }
}
