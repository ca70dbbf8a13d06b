import { Global, Module } from '@nestjs/common';
import { READ_MODEL_STATUS } from '../eventsourcing/read-model-status.port';
import { READ_YOUR_WRITES } from '../eventsourcing/read-your-writes.port';
import { ReadModels } from './read-models.service';

/**
 * The read models every feature reads and every write waits on (read-your-writes), one instance
 * for the application: global, so each feature module sees the ports without importing this one.
 */
@Global()
@Module({
  providers: [
    ReadModels,
    { provide: READ_YOUR_WRITES, useExisting: ReadModels },
    { provide: READ_MODEL_STATUS, useExisting: ReadModels },
  ],
  exports: [ReadModels, READ_YOUR_WRITES, READ_MODEL_STATUS],
})
export class ReadModelsModule {}
