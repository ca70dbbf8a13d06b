import type { Decider } from '../../shared/decider';

/**
 * A call in the list form of GET /v1/calls, as call.completed carries it. Built only by
 * `callListItem` (src/calls/contracts/call-list-item.ts); the decider carries it unread.
 */
export type CompletedCall = Readonly<{ id: string; trunk_id: string }> & Readonly<Record<string, unknown>>;

/**
 * The durable record of one ingest batch's calls for one account, appended only when that
 * account has an endpoint receiving call.completed. The dispatcher projection fans it out.
 */
export type CallsCompleted = {
  type: 'CallsCompleted';
  data: { account_id: string; batch_id: string; calls: CompletedCall[] };
};

export const callsCompletedStream = (batchId: string): string => `webhook-calls-${batchId}`;

/** Record one batch's completed calls, in a stream of the batch's own. */
export interface RecordCallsCompletedCommand {
  accountId: string;
  batchId: string;
  calls: CompletedCall[];
}

/**
 * Nothing to decide: each batch is a new stream, so the one event is appended expecting no
 * stream (a retry of the same batch id is refused by the store, never recorded twice).
 */
export const callsCompletedDecider: Decider<RecordCallsCompletedCommand, CallsCompleted, null> = {
  decide: ({ accountId, batchId, calls }) => [
    { type: 'CallsCompleted', data: { account_id: accountId, batch_id: batchId, calls } },
  ],
  evolve: (state) => state,
  initialState: () => null,
};

/** Calls per call.completed event: keeps a webhook body near 40 KB whatever the ingest batch size. */
export const CALLS_PER_EVENT = 100;
