import { type CallRecordInput, generateCalls, ndjsonBatches } from './calls/call-generator';
import type { NdjsonBody } from './ndjson-load';

/** Which records a run sends: `generateCalls` with these, so every process can rebuild them. */
export interface RecordSpec {
  seed: number;
  fromMs: number;
  toMs: number;
  /** Trunk ids in the generator's order, each with the provider ingestion enriches it with. */
  trunks: { id: string; provider: string }[];
  accountId: string;
}

/** Records `startIndex … startIndex+count-1` of the run: the same ones whichever process asks. */
export function recordsOf(spec: RecordSpec, startIndex: number, count: number): Iterable<CallRecordInput> {
  return generateCalls({
    count,
    startIndex,
    seed: spec.seed,
    from: new Date(spec.fromMs),
    to: new Date(spec.toMs),
    trunkIds: spec.trunks.map((t) => t.id),
  });
}

/** Request bodies as Buffers, built before the clock starts so the senders only send. */
export function ndjsonBodies(records: Iterable<CallRecordInput>, batchSize: number): NdjsonBody[] {
  const bodies: NdjsonBody[] = [];
  for (const batch of ndjsonBatches(records, batchSize))
    bodies.push({ body: Buffer.from(batch.body), count: batch.count });
  return bodies;
}
