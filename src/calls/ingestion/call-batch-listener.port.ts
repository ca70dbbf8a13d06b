import { EnrichedCallRecord } from './call-record.row';

/**
 * Told about every batch once it is durable and before the 200, so what it records is covered
 * by the gateway's retry of a failed request. Must return at once when it has nothing to do:
 * ingestion's throughput depends on it.
 */
export interface CallBatchListener {
  callsAccepted(accountId: string, records: EnrichedCallRecord[]): Promise<void>;
}

export const CALL_BATCH_LISTENER = Symbol('CallBatchListener');
