import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CLICKHOUSE, ClickHouseExecutor } from '../../infrastructure/clickhouse/clickhouse.port';
import { LEADER_LEASE, LeaderLease } from '../../infrastructure/cluster/leader-lease.port';
import { LeasedPeriodicWorker } from '../../infrastructure/cluster/leased-periodic-worker';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { AppLogger } from '../../platform/logging/logging';
import { CLOCK, Clock } from '../../shared/clock';
import { ExportView, exportKeys, exportViewCodec } from '../projections/export-views';
import { DecideExport, ExportWritten } from '../write/export.handlers';
import { EXPORT_MAX_ATTEMPTS, EXPORT_SETTINGS, ExportSettings } from '../exports.settings';
import { exportFileName, exportQuery, FILE_FORMATS } from './export-query';

const BATCH = 100;
const METADATA = { actor: 'system:exports' };

/**
 * Runs export jobs and deletes expired files: one instance among many (a lease), one job at a
 * time, each round taking the open jobs oldest first. A job found `running` at the start of a
 * round was cut short (rounds do not overlap, so this holder is not running it): it is started
 * again, and fails after EXPORT_MAX_ATTEMPTS starts. The engine writes the file
 * (ClickHouseExecutor.exportToFile); this process never holds its rows.
 */
@Injectable()
export class ExportRunner extends LeasedPeriodicWorker {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    @Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseExecutor,
    private readonly commands: CommandBus,
    @Inject(LEADER_LEASE) lease: LeaderLease,
    @Inject(EXPORT_SETTINGS) private readonly settings: ExportSettings,
    @Inject(CLOCK) private readonly clock: Clock,
    logging: AppLogger,
  ) {
    super(
      lease,
      { name: 'exports', intervalMs: settings.pollIntervalMs, failure: 'export round failed' },
      logging.for('exports'),
    );
  }

  protected async round(): Promise<void> {
    await this.runOpen();
    await this.expire();
  }

  private async views(key: string): Promise<ExportView[]> {
    const page = await this.store.page(key, exportKeys.exportPrefix, 0, BATCH, 'asc');
    return exportViewCodec.decodeAll(page.values);
  }

  private async runOpen(): Promise<void> {
    for (const view of await this.views(exportKeys.open)) {
      if (this.stopped) return;
      const started = await this.decide(view.id, {
        type: 'StartExport',
        data: { at: this.clock.now(), maxAttempts: EXPORT_MAX_ATTEMPTS },
      });
      const event = started.events[0];
      if (event?.type === 'ExportStarted') await this.run(view, event.data.attempt);
    }
  }

  private async run(view: ExportView, attempt: number): Promise<void> {
    const file = join(this.settings.dir, exportFileName(view.id, view.format));
    const { sql, count, params } = exportQuery(view.account_id, view.filters);
    try {
      await mkdir(this.settings.dir, { recursive: true });
      const [{ total }] = await this.clickhouse.query<{ total: number | string | null }>(count, params);
      const { bytes } = await this.clickhouse.exportToFile(sql, params, FILE_FORMATS[view.format].engine, file);
      const done = await this.decide(view.id, {
        type: 'CompleteExport',
        data: {
          attempt,
          rows: Number(total ?? 0),
          bytes,
          at: this.clock.now(),
          retentionMs: this.settings.retentionMs,
        },
      });
      // No event: a later attempt owns the job. The file is left alone: that attempt writes the
      // same path (same statement, same range) and replaces it whole by a rename.
      if (done.events.length > 0) this.logger.info({ export_id: view.id, bytes }, 'export completed');
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      this.logger.warn({ export_id: view.id, err: { message } }, 'export failed');
      // exportToFile leaves no partial file; a complete one at `file` may be another attempt's,
      // unless this attempt was the current one: then the job is failed and nothing serves it.
      const failed = await this.decide(view.id, {
        type: 'FailExport',
        data: { attempt, reason: 'The export could not be written; request it again', at: this.clock.now() },
      });
      if (failed.events.length > 0) await rm(file, { force: true });
    }
  }

  /** Completed jobs past their retention, soonest first: the file is deleted, then the fact recorded. */
  private async expire(): Promise<void> {
    const now = this.clock.now();
    for (const view of await this.views(exportKeys.expiring)) {
      if (this.stopped || view.expires_at === null || Date.parse(view.expires_at) > now.getTime()) return;
      await rm(join(this.settings.dir, exportFileName(view.id, view.format)), { force: true });
      await this.decide(view.id, { type: 'ExpireExport', data: { at: now } });
      this.logger.info({ export_id: view.id }, 'export file deleted at the end of its retention');
    }
  }

  private decide(exportId: string, command: DecideExport['command']): Promise<ExportWritten> {
    return this.commands.execute(new DecideExport(exportId, command, METADATA));
  }
}
