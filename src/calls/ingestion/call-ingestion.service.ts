import { Inject, Injectable, Optional } from '@nestjs/common';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { TrunkView, trunkKeys, trunkViewCodec } from '../../trunks/projections/trunk-view';
import { READ_MODEL_STATUS, type ReadModelStatus } from '../../eventsourcing/read-model-status.port';
import { DomainError } from '../../shared/domain-error';
import {
  CALL_BATCH_LISTENER,
  CALL_BATCH_OBSERVER,
  CallBatchListener,
  CallBatchObserver,
} from './call-batch-listener.port';
import { EnrichedCallRecord } from './call-record.row';
import { validateCallRecord } from './call-record.validation';
import { CallRecordWriter } from './call-record.writer';
import { recordLines } from '../../platform/http/ndjson.parser';
import { type CallLine, readCallLine } from './call-line.reader';

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
  @Inject(READ_MODEL_STATUS) private readonly readModels!: ReadModelStatus;

  constructor(
    @Inject(READ_MODEL_STORE) private readonly store: ReadModelStore,
    @Inject(CALL_RECORD_WRITER) private readonly writer: CallRecordWriter,
    @Optional() @Inject(CALL_BATCH_LISTENER) private readonly listener: CallBatchListener | null = null,
    @Optional() @Inject(CALL_BATCH_OBSERVER) private readonly observer: CallBatchObserver | null = null,
  ) {}

  /** `accountId` null: a gateway key, whose records each belong to their trunk's account. */
  async ingest(accountId: string | null, body: unknown): Promise<IngestResult> {
    const lines: CallLine[] = recordLines(body, 'calls', readCallLine);
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
      // A SIP trace the reader kept as its token (checked valid there) goes to the row as it came.
      if (line.sipTrace) verdict.record.sip_trace = line.sipTrace;
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
      if (!trunk || (accountId !== null && trunk.account_id !== accountId)) {
        rejected.push({
          index,
          id: verdict.record.id,
          code: 'unknown_trunk',
          message: `trunk ${verdict.record.trunk_id} does not exist in this account`,
        });
        continue;
      }
      accepted.push({ ...verdict.record, account_id: trunk.account_id, provider: trunk.ai_provider });
    }
    await this.writer.submit(accepted);
    if (this.listener)
      for (const [account, records] of byAccount(accepted)) await this.listener.callsAccepted(account, records);
    if (this.observer && accepted.length > 0) this.observer.callsStored(accepted);
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

function byAccount(records: EnrichedCallRecord[]): Map<string, EnrichedCallRecord[]> {
  const groups = new Map<string, EnrichedCallRecord[]>();
  for (const record of records) {
    const group = groups.get(record.account_id);
    if (group) group.push(record);
    else groups.set(record.account_id, [record]);
  }
  return groups;
}

function idOf(value: unknown): string | null {
  const id = value && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id.length <= 100 ? id : null;
}
