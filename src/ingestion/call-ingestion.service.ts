import { Inject, Injectable, Optional } from '@nestjs/common';
import { READ_MODEL_STORE, ReadModelStore } from '../infrastructure/read-model/read-model-store.port';
import { TrunkView, trunkKeys, trunkViewCodec } from '../projections/trunks/trunk-view';
import { ReadModels } from '../projections/read-models.service';
import { DomainError } from '../shared/domain-error';
import { CALL_BATCH_LISTENER, CallBatchListener } from './call-batch-listener.port';
import { EnrichedCallRecord } from './call-record.row';
import { validateCallRecord } from './call-record.validation';
import { CallRecordWriter } from './call-record.writer';
import { MAX_RECORDS_PER_REQUEST, NdjsonBody, NdjsonLine } from './ndjson.parser';

export interface Rejection {
  index: number;
  id: string | null;
  code: string;
  message: string;
}

export interface IngestResult {
  accepted: number;
  rejected: Rejection[];
}

export const CALL_RECORD_WRITER = Symbol('CallRecordWriter');

/** Validates each record on its own, enriches it from its trunk, and hands the good ones to the writer. */
@Injectable()
export class CallIngestion {
  @Inject(ReadModels) private readonly readModels!: ReadModels;

  constructor(
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    @Inject(CALL_RECORD_WRITER) private readonly writer: CallRecordWriter,
    @Optional() @Inject(CALL_BATCH_LISTENER) private readonly listener: CallBatchListener | null = null,
  ) {}

  async ingest(accountId: string, body: unknown): Promise<IngestResult> {
    const lines = linesOf(body);
    const rejected: Rejection[] = [];
    const valid: {
      index: number;
      record: EnrichedCallRecord | null;
      verdict: ReturnType<typeof validateCallRecord>;
    }[] = [];
    lines.forEach((line, index) => {
      if (line.error !== undefined)
        return rejected.push({ index, id: null, code: 'invalid_json', message: line.error });
      const verdict = validateCallRecord(line.value);
      if (!verdict.ok)
        return rejected.push({ index, id: idOf(line.value), code: verdict.code, message: verdict.message });
      valid.push({ index, record: null, verdict });
    });
    const trunkIds = valid.map((v) => (v.verdict.ok ? v.verdict.record.trunk_id : ''));
    let trunks = await this.trunksOf(trunkIds);
    if (trunkIds.some((id) => !trunks.has(id))) trunks = await this.lookAgain(trunkIds);
    const accepted: EnrichedCallRecord[] = [];
    for (const { index, verdict } of valid) {
      if (!verdict.ok) continue;
      const trunk = trunks.get(verdict.record.trunk_id);
      // Another account's trunk is reported exactly like a missing one: ids do not leak.
      if (!trunk || trunk.account_id !== accountId) {
        rejected.push({
          index,
          id: verdict.record.id,
          code: 'unknown_trunk',
          message: `trunk ${verdict.record.trunk_id} does not exist in this account`,
        });
        continue;
      }
      accepted.push({ ...verdict.record, account_id: accountId, provider: trunk.ai_provider });
    }
    await this.writer.submit(accepted);
    if (this.listener && accepted.length > 0) await this.listener.callsAccepted(accountId, accepted);
    return { accepted: accepted.length, rejected: rejected.sort((a, b) => a.index - b.index) };
  }

  /**
   * While the read models are replayed (Redis lost its data), a trunk may be missing only for now:
   * the whole request is retryable (503), rather than records rejected that the gateway would drop.
   * Checked after the first lookup, so a replay that finished in between is seen by one more.
   */
  private async lookAgain(ids: string[]): Promise<Map<string, TrunkView>> {
    if (await this.readModels.restoring()) {
      throw new DomainError('service_unavailable', 'Read models are being restored; retry shortly', {
        retryAfterSeconds: 1,
      });
    }
    return this.trunksOf(ids);
  }

  private async trunksOf(ids: string[]): Promise<Map<string, TrunkView>> {
    const distinct = [...new Set(ids)];
    const values = distinct.length > 0 ? await this.store.mget(distinct.map(trunkKeys.trunk)) : [];
    const found = new Map<string, TrunkView>();
    values.forEach((value, i) => {
      const trunk = trunkViewCodec.decode(value);
      if (trunk) found.set(distinct[i], trunk);
    });
    return found;
  }
}

function linesOf(body: unknown): NdjsonLine[] {
  if (body instanceof NdjsonBody) return body.lines;
  const list = Array.isArray(body)
    ? body
    : body && typeof body === 'object' && Array.isArray((body as { calls?: unknown }).calls)
      ? (body as { calls: unknown[] }).calls
      : null;
  if (!list)
    throw new DomainError(
      'missing_required_field',
      'Send NDJSON (application/x-ndjson), a JSON array of records, or {"calls": [...]}',
    );
  if (list.length > MAX_RECORDS_PER_REQUEST)
    throw new DomainError('payload_too_large', `At most ${MAX_RECORDS_PER_REQUEST} records per request`);
  return list.map((value) => ({ value }));
}

function idOf(value: unknown): string | null {
  const id = value && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id.length <= 100 ? id : null;
}
