/**
 * Told, after each stored batch of rejections and before the answer, which accounts it touched
 * (the live call stream wakes their streams). Not awaited and must not throw: ingestion never
 * waits for it.
 */
export interface RejectionBatchObserver {
  rejectionsStored(accountIds: string[]): void;
}

export const REJECTION_BATCH_OBSERVER = Symbol('RejectionBatchObserver');
