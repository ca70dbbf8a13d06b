import { DynamicModule, Module } from '@nestjs/common';
import { CLICKHOUSE, ClickHouseExecutor } from '../infrastructure/clickhouse/clickhouse.port';
import { CLUSTER, ClusterServices } from '../infrastructure/cluster/cluster.port';
import type { FeatureWiring } from '../platform/modules/feature-wiring';
import { CallChangesController } from './http/call-changes.controller';
import { CallsController } from './http/calls.controller';
import { IngestController } from './http/ingest.controller';
import { CALL_HOURS_WRITTEN, CallHoursWritten } from './ingestion/call-batch-listener.port';
import { CALL_RECORD_WRITER, CallIngestion } from './ingestion/call-ingestion.service';
import { CallRecordWriter, sharedWriterOptions } from './ingestion/call-record.writer';
import { IngestionLifecycle } from './ingestion/ingestion.lifecycle';
import { ListCallChangesHandler } from './read/call-changes.queries';
import { GetCallHandler, ListCallsHandler } from './read/calls.queries';

/**
 * Call records: NDJSON ingestion into ClickHouse, the call list and detail, and the sync feed
 * (GET /v1/calls/changes). The wiring gives CALL_BATCH_LISTENER (the call.completed webhooks)
 * and CALL_BATCH_OBSERVER (trunk health): who hears of each stored batch; CALL_HOURS_WRITTEN (the
 * overview's whole-hours copies) hears which hours each INSERT wrote, before its requests are answered.
 */
@Module({})
export class CallsModule {
  static forRoot(wiring: FeatureWiring): DynamicModule {
    return {
      module: CallsModule,
      imports: wiring.imports ?? [],
      controllers: [IngestController, CallsController, CallChangesController],
      providers: [
        ...(wiring.providers ?? []),
        {
          provide: CALL_RECORD_WRITER,
          inject: [CLICKHOUSE, CLUSTER, { token: CALL_HOURS_WRITTEN, optional: true }],
          useFactory: (
            clickhouse: ClickHouseExecutor,
            cluster: ClusterServices | null,
            hours: CallHoursWritten | null,
          ) =>
            new CallRecordWriter(clickhouse, {
              ...sharedWriterOptions(clickhouse, cluster),
              ...(hours ? { hoursWritten: (touched) => hours.hoursWritten(touched) } : {}),
            }),
        },
        CallIngestion,
        IngestionLifecycle,
        ListCallsHandler,
        GetCallHandler,
        ListCallChangesHandler,
      ],
    };
  }
}
