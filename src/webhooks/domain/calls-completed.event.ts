import type { Decider } from '../../shared/decider';

/** A call in the list form of api.md (plus direction), as call.completed carries it. */
export interface CompletedCall {
  id: string;
  trunk_id: string;
  from: string;
  to: string;
  status: string;
  duration_seconds: number;
  start_time: string;
  end_time: string | null;
  carrier_lag_ms: number | null;
  ai_latency_ms: number | null;
  gateway_processing_ms: number | null;
  direction: string;
}

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
