import { Global, Module } from '@nestjs/common';
import { READ_MODEL_STATUS } from '../eventsourcing/read-model-status.port';
import { READ_YOUR_WRITES } from '../eventsourcing/read-your-writes.port';
import { PROJECTION_SETTINGS, ProjectionSettings } from '../eventsourcing/projection.settings';
import { CLUSTER, ClusterServices } from '../infrastructure/cluster/cluster.port';
import {
  GATE_READ_MODEL_STORE,
  READ_MODEL_STORE,
  ReadModelStore,
} from '../infrastructure/read-model/read-model-store.port';
import { AppLogger } from '../platform/logging/logging';
import { connectGateRecords, GateRecords } from './gate-records';
import { GATE_RECORDS, ReadModels } from './read-models.service';

/**
 * The read models every feature reads and every write waits on (read-your-writes), one instance
 * for the application: global, so each feature module sees the ports without importing this one.
 * Also the store the request gate reads its records through (per-instance copies with Redis),
 * kept coherent by the same runner.
 */
@Global()
@Module({
  providers: [
    {
      provide: GATE_RECORDS,
      inject: [READ_MODEL_STORE, CLUSTER, PROJECTION_SETTINGS, AppLogger],
      useFactory: (
        store: ReadModelStore,
        cluster: ClusterServices | null,
        settings: ProjectionSettings,
        logging: AppLogger,
      ): Promise<GateRecords> =>
        connectGateRecords(store, cluster, settings.recordCacheTtlMs, logging.for('record-cache')),
    },
    {
      provide: GATE_READ_MODEL_STORE,
      inject: [GATE_RECORDS],
      useFactory: (records: GateRecords): ReadModelStore => records.store,
    },
    ReadModels,
    { provide: READ_YOUR_WRITES, useExisting: ReadModels },
    { provide: READ_MODEL_STATUS, useExisting: ReadModels },
  ],
  exports: [ReadModels, READ_YOUR_WRITES, READ_MODEL_STATUS, GATE_READ_MODEL_STORE],
})
export class ReadModelsModule {}
