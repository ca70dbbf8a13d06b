import { ChainVerifier, type VerifyOutcome } from './chain-verifier';
import {
  CSV_HEADER_ROW,
  EXPORT_FORMAT,
  type ExportEnd,
  type ExportHeader,
  type ExportRecord,
  fromCsvRow,
  parseCsvRow,
} from './export-format';
import type { StreamHead } from './merkle-heads';

/**
 * verified: every record holds and the end record matches. tampered: a record does not hold (or
 * the end record does not match what precedes it). truncated: the file stops before its end
 * record and everything before that holds; a cut-off export is not evidence of tampering.
 * unreadable: not an export of this service.
 */
export type ExportVerdict = 'verified' | 'tampered' | 'truncated' | 'unreadable';

export interface ExportReport {
  verdict: ExportVerdict;
  message: string;
  format: 'ndjson' | 'csv' | null;
  header: ExportHeader | null;
  outcome: VerifyOutcome | null;
}

type Parse = (line: string) => ExportRecord;

const parseNdjson: Parse = (line) => JSON.parse(line) as ExportRecord;
const parseCsv: Parse = (line) => fromCsvRow(parseCsvRow(line));

/** Verifies an export from its lines, in constant memory, with no access to the service. */
export async function verifyExport(lines: AsyncIterable<string>): Promise<ExportReport> {
  const state = new ExportCheck();
  let pendingError: string | null = null;
  for await (const line of lines) {
    if (line === '') continue;
    if (pendingError) return state.report('tampered', `a record is not readable: ${pendingError}`);
    pendingError = state.take(line);
    if (state.finished) return state.finished;
  }
  // An unreadable last line is a record cut in the middle: the file was truncated there.
  return state.atEnd(pendingError !== null);
}

class ExportCheck {
  finished: ExportReport | null = null;
  private parse: Parse | null = null;
  private format: 'ndjson' | 'csv' | null = null;
  private header: ExportHeader | null = null;
  private verifier: ChainVerifier | null = null;
  private readonly heads: StreamHead[] = [];
  private end: ExportEnd | null = null;

  /** Returns a parse error to be judged by what follows; sets `finished` on a verdict. */
  take(line: string): string | null {
    if (!this.parse) return this.start(line);
    let record: ExportRecord;
    try {
      record = this.parse(line);
    } catch (error) {
      return (error as Error).message;
    }
    this.apply(record);
    return null;
  }

  atEnd(cutMidRecord: boolean): ExportReport {
    if (!this.header) return this.report('unreadable', 'the file has no export header');
    if (!this.end) {
      const events = this.started().result().events;
      const where = cutMidRecord ? 'in the middle of a record' : 'at a record boundary';
      return this.report('truncated', `the file ends ${where} before its end record; the ${events} events before hold`);
    }
    return this.report('verified', 'every event and checkpoint holds, and the end record matches');
  }

  report(verdict: ExportVerdict, message: string): ExportReport {
    return { verdict, message, format: this.format, header: this.header, outcome: this.verifier?.result() ?? null };
  }

  private start(line: string): string | null {
    if (line.startsWith('{')) [this.parse, this.format] = [parseNdjson, 'ndjson'];
    else if (line === CSV_HEADER_ROW.trimEnd()) {
      [this.parse, this.format] = [parseCsv, 'csv'];
      return null;
    } else {
      this.finished = this.report('unreadable', 'neither an NDJSON nor a CSV audit export');
      return null;
    }
    return this.take(line);
  }

  private apply(record: ExportRecord): void {
    if (this.end) return this.fail('a record follows the end record');
    if (!this.header) {
      if (record.record !== 'header' || record.format !== EXPORT_FORMAT)
        this.finished = this.report('unreadable', 'the first record is not an audit export header');
      else this.header = record;
      return;
    }
    switch (record.record) {
      case 'head':
        if (this.verifier) return this.fail('a head record after the first event');
        this.heads.push({ streamId: record.stream_id, revision: record.revision, hash: record.hash });
        return;
      case 'event': {
        const { record: _kind, ...event } = record;
        if (!this.started().add(event)) this.fail(`the chain breaks: ${this.started().broken?.message}`);
        return;
      }
      case 'end':
        this.end = record;
        return this.checkEnd(record);
      default:
        return this.fail(`unexpected ${record.record} record`);
    }
  }

  private checkEnd(end: ExportEnd): void {
    const outcome = this.started().result();
    const events = outcome.events - (this.header?.events_before ?? 0);
    const matches =
      end.events === events &&
      end.root === outcome.root &&
      end.streams === outcome.streams &&
      end.last_position === (outcome.head?.position ?? null);
    if (!matches) this.fail(`the end record counts ${end.events} events (root ${end.root}); the file holds ${events}`);
  }

  private started(): ChainVerifier {
    if (!this.verifier) {
      this.verifier = new ChainVerifier(this.header?.account_id ?? '');
      this.verifier.startFrom(this.heads, this.header?.events_before ?? 0);
    }
    return this.verifier;
  }

  private fail(message: string): void {
    this.finished = this.report('tampered', message);
  }
}
