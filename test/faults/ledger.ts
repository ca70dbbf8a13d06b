import type { CallRecordInput } from '../../bench/lib/calls/call-generator';

export interface Sample {
  /** ms since the epoch when the request was sent. */
  start: number;
  ms: number;
  /** HTTP status; 0 when the connection failed (service killed), -1 when the client gave up. */
  status: number;
  retryAfter: boolean;
  op: string;
}

/**
 * What the clients of one fault case sent and what the service acknowledged: the truth the
 * verification checks the service against.
 */
export class Ledger {
  readonly samples: Sample[] = [];
  /** Trunk id → X-Request-Id of each acknowledged write (create, update, rotation) of it. */
  readonly trunkWrites = new Map<string, string[]>();
  /** Every record ever sent, by id (the last version sent). */
  readonly sentCalls = new Map<string, CallRecordInput>();
  readonly acknowledgedCalls = new Set<string>();
  /** Answers no client should ever get (a 500, a 401 for a valid key, a 503 without Retry-After…). */
  readonly unexpected: string[] = [];

  record(sample: Sample, detail: () => string): void {
    this.samples.push(sample);
    if (sample.status >= 200 && sample.status < 300) return;
    if (sample.status === 503 && sample.retryAfter) return;
    if (sample.status === 0) return; // judged by the case: only expected while the service is down
    this.unexpected.push(
      `${new Date(sample.start).toISOString()} +${sample.ms} ms ${sample.op} → ${sample.status}: ${detail().slice(0, 300)}`,
    );
  }

  acknowledgeWrite(trunkId: string, requestId: string): void {
    const writes = this.trunkWrites.get(trunkId);
    if (writes) writes.push(requestId);
    else this.trunkWrites.set(trunkId, [requestId]);
  }

  get trunkIds(): string[] {
    return [...this.trunkWrites.keys()];
  }

  get acknowledgedWrites(): number {
    let writes = 0;
    for (const ids of this.trunkWrites.values()) writes += ids.length;
    return writes;
  }

  /** Samples in flight at some moment of [from, to] (sent before and answered after count too). */
  within(from: number, to: number): Sample[] {
    return this.samples.filter((s) => overlaps(s, from, to));
  }

  connectionErrorsOutside(windows: [number, number][]): number {
    return this.samples.filter((s) => s.status === 0 && !windows.some(([from, to]) => overlaps(s, from, to))).length;
  }
}

const overlaps = (s: Sample, from: number, to: number): boolean => s.start <= to && s.start + s.ms >= from;
