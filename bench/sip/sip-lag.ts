import { Percentiles } from '../lib/percentiles';
import { type CallResult, recordIdOf } from '../lib/sip/sipp';

const POLL_MS = 25;
const SETTLE_MS = 30_000;

/**
 * The lag from each call's BYE (as SIPp sent it) to the first GET /v1/calls that lists its record,
 * polling every 25 ms while the calls run and until every record showed up (or 30 s passed).
 */
export async function recordLag(run: {
  calls: () => Promise<CallResult>;
  listCalls: () => Promise<{ id: string }[]>;
}): Promise<Percentiles> {
  const firstSeen = new Map<string, number>();
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const started = Date.now();
      for (const call of await run.listCalls()) if (!firstSeen.has(call.id)) firstSeen.set(call.id, Date.now());
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, POLL_MS - (Date.now() - started))));
    }
  })();
  const result = await run.calls();
  const deadline = Date.now() + SETTLE_MS;
  while (result.calls.some((c) => !firstSeen.has(recordIdOf(c.callId))) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  polling = false;
  await poller;
  const lags = new Percentiles();
  for (const call of result.calls) {
    const seen = firstSeen.get(recordIdOf(call.callId));
    if (seen === undefined) throw new Error(`the record of call ${call.callId} never showed up`);
    lags.record(seen - call.byeSentMs);
  }
  return lags;
}
