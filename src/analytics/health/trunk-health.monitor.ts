import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import { CallBatchObserver } from '../../calls/ingestion/call-batch-listener.port';
import { EnrichedCallRecord } from '../../calls/ingestion/call-record.row';
import { CLICKHOUSE, ClickHouseExecutor } from '../../infrastructure/clickhouse/clickhouse.port';
import { CALL_RECORDS } from '../../infrastructure/clickhouse/schema';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { AppLogger } from '../../platform/logging/logging';
import { CLOCK, Clock } from '../../shared/clock';
import { trunkKeys, trunkViewCodec } from '../../trunks/projections/trunk-view';
import { ReportTrunkHealth } from '../../trunks/write/report-trunk-health.handler';
import {
  HEALTH_WINDOW_MS,
  isHealthFailure,
  RecentCall,
  TRUNK_FAILURES_FOR_ERROR,
  verdictOf,
} from './trunk-health.rule';

/** The trunk's most recent calls (latest version each), newest first, within the window. */
const recentCallsSql = `SELECT call_id, status, failure_class, answered FROM ${CALL_RECORDS.name} FINAL
  WHERE account_id = {account:String} AND trunk_id = {trunk:String}
    AND start_time >= fromUnixTimestamp64Milli({since_ms:Int64}, 'UTC')
  ORDER BY start_time DESC, call_id DESC LIMIT {n:UInt32}`;

interface Due {
  accountId: string;
  failing: boolean;
  answered: boolean;
}

/**
 * Watches stored call records and turns what they show into commands on the trunk's decider
 * (docs/analytics.md, "Trunk health"): a process that reacts to records, apart from every
 * projection. Checks run one after another, off ingestion's path, each on the stored calls as
 * they are when it runs, so the last check after a batch sees that batch.
 */
@Injectable()
export class TrunkHealthMonitor implements CallBatchObserver, BeforeApplicationShutdown {
  private chain: Promise<void> = Promise.resolve();
  private readonly logger: Logger;

  constructor(
    @Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor,
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly commands: CommandBus,
    logging: AppLogger,
  ) {
    this.logger = logging.for('trunk-health');
  }

  /** Only trunks with a failure of the agent or routing, or an answered call, can change. */
  callsStored(records: EnrichedCallRecord[]): void {
    const due = new Map<string, Due>();
    for (const r of records) {
      const failing = isHealthFailure(r.status, r.signalling?.failure_class ?? null);
      if (!failing && !r.answered) continue;
      const entry = due.get(r.trunk_id) ?? { accountId: r.account_id, failing: false, answered: false };
      entry.failing ||= failing;
      entry.answered ||= r.answered;
      due.set(r.trunk_id, entry);
    }
    if (due.size === 0) return;
    this.chain = this.chain
      .then(() => this.check(due))
      .catch((err: Error) => this.logger.warn({ err: { message: err.message } }, 'trunk health not checked'));
  }

  /** Lets the checks already queued finish before the app closes its stores. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.chain;
  }

  private async check(due: Map<string, Due>): Promise<void> {
    const ids = [...due.keys()];
    const views = await this.store.mget(ids.map(trunkKeys.trunk));
    for (const [i, trunkId] of ids.entries()) {
      const trunk = trunkViewCodec.decode(views[i]);
      const { accountId, failing, answered } = due.get(trunkId)!;
      // Only what could move it: failures for an active trunk, an answered call for one in error.
      if (!trunk || !((trunk.status === 'active' && failing) || (trunk.status === 'error' && answered))) continue;
      const recent = await this.clickhouse.query<RecentCall>(recentCallsSql, {
        account: accountId,
        trunk: trunkId,
        since_ms: this.clock.now().getTime() - HEALTH_WINDOW_MS,
        n: TRUNK_FAILURES_FOR_ERROR,
      });
      const verdict = verdictOf(recent);
      if (!verdict || verdict.healthy !== (trunk.status === 'error')) continue;
      await this.commands.execute(
        new ReportTrunkHealth(trunkId, accountId, verdict.healthy, verdict.reason, verdict.callIds),
      );
    }
  }
}
