import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { TrunklineClient } from '../../../clients/typescript';

/** A call record as POST /v1/ingest/calls takes it (docs/sip-gateway.md, api-changes.md). */
export type CallRecord = Record<string, unknown> & { id: string };

const BATCH = 50;
const RETRY_MS = 1_000;

/**
 * Records go to disk first (one file per call id, written whole and fsynced, then renamed into
 * place) and are posted from there; a file is removed only after Trunkline answered 200 for it.
 * A record that was posted but whose answer was lost is posted again, and Trunkline replaces a
 * call by id: each call is stored once, across restarts of either side (docs/media-gateway.md).
 */
export class RecordSpool {
  private readonly pendingDir: string;
  private readonly refusedDir: string;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private stopped = false;
  private readonly writing = new Set<Promise<void>>();

  constructor(
    dir: string,
    private readonly client: TrunklineClient,
    private readonly log: Logger,
  ) {
    this.pendingDir = join(dir, 'pending');
    this.refusedDir = join(dir, 'refused');
    mkdirSync(this.pendingDir, { recursive: true });
    mkdirSync(this.refusedDir, { recursive: true });
  }

  /** Delivers what a previous run left, then whatever is added. */
  start(): void {
    this.schedule(0);
  }

  /**
   * Spools a record. The write (and its fsync) runs off the event loop, so a burst of calls ending
   * never delays another call's audio; stop() waits for the writes in flight.
   */
  add(record: CallRecord): void {
    const write = this.write(record)
      .then(() => this.schedule(0))
      .catch((error: Error) => this.log.error({ id: record.id, err: error.message }, 'spooling a call record failed'))
      .finally(() => this.writing.delete(write));
    this.writing.add(write);
  }

  private async write(record: CallRecord): Promise<void> {
    const name = `${record.id.replace(/[^A-Za-z0-9_]/g, '')}.json`;
    const temporary = join(this.pendingDir, `.${name}.tmp`);
    const file = await open(temporary, 'w');
    try {
      await file.writeFile(JSON.stringify(record));
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, join(this.pendingDir, name));
  }

  /** Ids still waiting for Trunkline. */
  pending(): string[] {
    return readdirSync(this.pendingDir).filter((f) => f.endsWith('.json') && !f.startsWith('.'));
  }

  /** Stops the timer after a last attempt (bounded by the HTTP timeout); what is left stays on disk. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.all([...this.writing]);
    await this.flushing;
    await this.flush().catch(() => undefined);
  }

  private schedule(ms: number): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.flushing) return this.schedule(RETRY_MS);
      this.flushing = this.flush()
        .then(() => {
          if (this.pending().length > 0) this.schedule(RETRY_MS);
        })
        .catch((error: Error) => {
          this.log.warn(
            { err: error.message, pending: this.pending().length },
            'posting call records failed; kept on disk',
          );
          this.schedule(RETRY_MS);
        })
        .finally(() => (this.flushing = null));
    }, ms);
  }

  private async flush(): Promise<void> {
    for (;;) {
      const files = this.pending().slice(0, BATCH);
      if (files.length === 0) return;
      const calls = files.map((f) => JSON.parse(readFileSync(join(this.pendingDir, f), 'utf8')) as CallRecord);
      const { data, response } = await this.client.POST('/ingest/calls', {
        body: { calls } as never,
      });
      if (response.status !== 200 || !data) throw new Error(`ingest answered ${response.status}`);
      const refused = new Map(data.rejected.map((r) => [r.index, r]));
      files.forEach((file, index) => {
        const rejection = refused.get(index);
        const older = rejection ? withoutNewFields(calls[index]) : null;
        if (older && rejection && /unknown field|failure_class/.test(rejection.message)) {
          // A Trunkline from before #26 knows no mos, turn offsets or agent_unreachable: the record
          // goes again without them rather than not at all.
          this.log.warn(
            { id: calls[index].id, message: rejection.message },
            'Trunkline predates the media fields; sending the record without them',
          );
          void this.write(older).catch((error: Error) =>
            this.log.error({ err: error.message }, 'rewriting a record failed'),
          );
        } else if (rejection) {
          // Refused on its own: it would be refused again. Kept aside for the operator, not retried.
          this.log.error(
            { id: calls[index].id, code: rejection.code, message: rejection.message },
            'Trunkline refused a call record',
          );
          renameSync(join(this.pendingDir, file), join(this.refusedDir, file));
        } else {
          unlinkSync(join(this.pendingDir, file));
        }
      });
    }
  }
}

/** The record without the fields #26 and #27 added to ingestion (mos, turn interrupted/start_offset_ms, failure_class agent_unreachable/agent_auth/agent_quota); null when it has none. */
export function withoutNewFields(record: CallRecord): CallRecord | null {
  const older: CallRecord = { ...record };
  let changed = false;
  if ('mos' in older) {
    delete older.mos;
    changed = true;
  }
  if (
    older.failure_class === 'agent_unreachable' ||
    older.failure_class === 'agent_auth' ||
    older.failure_class === 'agent_quota'
  ) {
    delete older.failure_class;
    changed = true;
  }
  if (Array.isArray(older.turns)) {
    older.turns = (older.turns as Record<string, unknown>[]).map((turn) => {
      const { interrupted: _i, start_offset_ms: _s, ...rest } = turn;
      if (_i !== undefined || _s !== undefined) changed = true;
      return rest;
    });
  }
  return changed ? older : null;
}
