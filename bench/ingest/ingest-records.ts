import { type CallRow, type EnrichedCallRecord, rowOf } from '../../src/calls/ingestion/call-record.row';
import { validateCallRecord } from '../../src/calls/ingestion/call-record.validation';
import type { CallRecordInput } from '../lib/calls/call-generator';
import type { RecordSpec } from '../lib/call-records';

/**
 * call_records rows exactly as CallRecordWriter builds them for calls it has not seen before:
 * validated, enriched from the trunk, `rowOf` with a strictly increasing version.
 */
export class RowBuilder {
  private readonly providers: Map<string, string>;
  private lastVersion = 0;

  constructor(private readonly spec: RecordSpec) {
    this.providers = new Map(spec.trunks.map((t) => [t.id, t.provider]));
  }

  rows(records: Iterable<CallRecordInput>): CallRow[] {
    const now = new Date();
    const rows: CallRow[] = [];
    for (const input of records) rows.push(rowOf(this.enrich(input), this.nextVersion(), now));
    return rows;
  }

  private enrich(input: CallRecordInput): EnrichedCallRecord {
    const verdict = validateCallRecord(input);
    if (!verdict.ok) throw new Error(`generated record ${input.id} is invalid: ${verdict.code} ${verdict.message}`);
    const provider = this.providers.get(verdict.record.trunk_id);
    if (provider === undefined)
      throw new Error(`generated record ${input.id} names unknown trunk ${verdict.record.trunk_id}`);
    return { ...verdict.record, account_id: this.spec.accountId, provider };
  }

  private nextVersion(): number {
    this.lastVersion = Math.max(this.lastVersion + 1, Date.now() * 1000);
    return this.lastVersion;
  }
}
