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

/**
 * Told about every durable batch after the listener, and not awaited: what it does (the trunk
 * health monitor's queries and commands) never delays or fails ingestion. It must not throw.
 */
export interface CallBatchObserver {
  callsStored(records: EnrichedCallRecord[]): void;
}

export const CALL_BATCH_OBSERVER = Symbol('CallBatchObserver');

/**
 * Told, after each INSERT into call_records (returned or failed) and before the requests whose
 * rows it held are answered, which hours of which accounts it wrote rows into, cancel rows
 * included (each hour by its first millisecond). Awaited: what depends on those hours (the
 * overview's whole-hours copies on every instance) is dropped before the 200. Must not throw.
 */
export interface CallHoursWritten {
  hoursWritten(hours: ReadonlyMap<string, readonly number[]>): Promise<void>;
}

export const CALL_HOURS_WRITTEN = Symbol('CallHoursWritten');
