import { DynamicModule, Module } from '@nestjs/common';
import { CLICKHOUSE, ClickHouseExecutor } from '../infrastructure/clickhouse/clickhouse.port';
import { CLUSTER, ClusterServices } from '../infrastructure/cluster/cluster.port';
import type { FeatureWiring } from '../platform/modules/feature-wiring';
import { CallsController } from './http/calls.controller';
import { IngestController } from './http/ingest.controller';
import { CALL_RECORD_WRITER, CallIngestion } from './ingestion/call-ingestion.service';
import { CallRecordWriter, sharedWriterOptions } from './ingestion/call-record.writer';
import { IngestionLifecycle } from './ingestion/ingestion.lifecycle';
import { GetCallHandler, ListCallsHandler } from './read/calls.queries';

/**
 * Call records: NDJSON ingestion into ClickHouse and the call list and detail. The wiring gives
 * CALL_BATCH_LISTENER (who hears of each stored batch: the call.completed webhooks).
 */
@Module({})
export class CallsModule {
  static forRoot(wiring: FeatureWiring): DynamicModule {
    return {
      module: CallsModule,
      imports: wiring.imports ?? [],
      controllers: [IngestController, CallsController],
      providers: [
        ...(wiring.providers ?? []),
        {
          provide: CALL_RECORD_WRITER,
          inject: [CLICKHOUSE, CLUSTER],
          useFactory: (clickhouse: ClickHouseExecutor, cluster: ClusterServices | null) =>
            new CallRecordWriter(clickhouse, sharedWriterOptions(clickhouse, cluster)),
        },
        CallIngestion,
        IngestionLifecycle,
        ListCallsHandler,
        GetCallHandler,
      ],
    };
  }
}
