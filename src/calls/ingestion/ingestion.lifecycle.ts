import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { CALL_RECORD_WRITER } from './call-ingestion.service';
import { CallRecordWriter } from './call-record.writer';

/** On shutdown, whatever was queued is written before ClickHouse closes. */
@Injectable()
export class IngestionLifecycle implements BeforeApplicationShutdown {
  constructor(@Inject(CALL_RECORD_WRITER) private readonly writer: CallRecordWriter) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.writer.drain();
  }
}
