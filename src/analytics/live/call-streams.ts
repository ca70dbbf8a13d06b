import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { Logger } from 'pino';
import { AppLogger } from '../../platform/logging/logging';
import { DomainError } from '../../shared/domain-error';
import { decodeStreamPosition, encodeStreamPosition, StreamPosition } from './call-stream.position';
import { CallStreamReader, StreamEvent, StreamRead } from './call-stream.reader';
import { CALL_STREAM_SETTINGS, CallStreamSettings } from './call-stream.settings';
import { StoredNotices } from './stored-notices';

/** A stream that has read its first events, ready to be sent. */
export interface OpenStream {
  body: PassThrough;
  /** Runs until the client leaves, the stream is cut or the service stops. */
  run(response: ServerResponse): void;
}

const NOTHING: StreamRead = { events: [], more: false };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The open live streams of this instance (GET /v1/calls/stream, docs/analytics.md "Calls as they
 * happen"). Each reads the store from its own position: when a notice says its account stored
 * something, else every CALL_STREAM_POLL_MS. What it holds for a client is bounded: it reads
 * again only while it holds less than CALL_STREAM_MAX_BUFFER_BYTES, and a client that leaves it
 * holding that much for a heartbeat interval is cut off (it resumes with Last-Event-ID).
 */
@Injectable()
export class CallStreams implements BeforeApplicationShutdown {
  private readonly open = new Set<() => void>();
  private closing = false;
  private readonly logger: Logger;

  constructor(
    private readonly reader: CallStreamReader,
    private readonly notices: StoredNotices,
    @Inject(CALL_STREAM_SETTINGS) private readonly settings: CallStreamSettings,
    logging: AppLogger,
  ) {
    this.logger = logging.for('call-stream');
  }

  /** Validates the position and reads the first events, so a bad one is a 400 before any byte is sent. */
  async start(accountId: string, lastEventId: { text: string; param: string } | null): Promise<OpenStream> {
    if (this.closing)
      throw new DomainError('service_unavailable', 'This instance is stopping; reconnect', { retryAfterSeconds: 1 });
    const from = lastEventId
      ? decodeStreamPosition(lastEventId.text, lastEventId.param)
      : await this.reader.head(accountId);
    const first = await this.reader.after(accountId, from, lastEventId?.param ?? 'Last-Event-ID');
    const body = new PassThrough();
    // The client's first position, even before any event: a stream dropped before its first
    // record resumes from where it began.
    body.write(`retry: 1000\nid: ${encodeStreamPosition(from)}\nevent: ready\ndata: {}\n\n`);
    return { body, run: (response) => void this.run(accountId, from, first, body, response) };
  }

  /** Streams open on this instance now. */
  get openStreams(): number {
    return this.open.size;
  }

  /** Ends every open stream and refuses new ones: the service is stopping (clients resume elsewhere). */
  endAll(): void {
    this.closing = true;
    for (const stop of [...this.open]) stop();
  }

  beforeApplicationShutdown(): void {
    this.endAll();
  }

  private async run(
    accountId: string,
    from: StreamPosition,
    first: StreamRead,
    body: PassThrough,
    response: ServerResponse,
  ): Promise<void> {
    let closed = false;
    let woken = false;
    let wake = () => undefined as void;
    const stop = () => {
      closed = true;
      wake();
    };
    const unlisten = this.notices.listen(accountId, () => {
      woken = true;
      wake();
    });
    response.once('close', stop);
    this.open.add(stop);
    if (this.closing) closed = true;
    const buffered = () => body.writableLength + body.readableLength + response.writableLength;
    let position = from;
    let read: StreamRead = first;
    let lastWrite = performance.now();
    try {
      for (;;) {
        for (const event of read.events) body.write(frame(event));
        if (read.events.length > 0) lastWrite = performance.now();
        position = read.events.at(-1)?.position ?? position;
        const more = read.more;
        read = NOTHING;
        if (closed) break;
        if (!(await this.roomFor(buffered, () => closed))) {
          this.logger.warn(
            { account_id: accountId, buffered: buffered() },
            'call stream cut: the client is not reading',
          );
          response.destroy();
          break;
        }
        if (closed) break;
        if (!more && !woken) {
          const idleMs = this.settings.heartbeatMs - (performance.now() - lastWrite);
          if (idleMs <= 0) {
            body.write(': heartbeat\n\n');
            lastWrite = performance.now();
            continue;
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.min(this.settings.pollMs, idleMs));
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = () => undefined;
          if (closed) break;
        }
        woken = false;
        read = await this.reader.after(accountId, position, 'Last-Event-ID');
      }
    } catch (error) {
      this.logger.error({ err: error, account_id: accountId }, 'call stream failed; the client resumes');
      response.destroy();
    } finally {
      unlisten();
      this.open.delete(stop);
      if (!response.destroyed) body.end();
    }
  }

  /**
   * True once the stream holds less than CALL_STREAM_MAX_BUFFER_BYTES for the client (at once for
   * a client that reads); false when it still holds that much a heartbeat interval later. What a
   * stream holds is thus at most the bound plus one round of reads.
   */
  private async roomFor(buffered: () => number, closed: () => boolean): Promise<boolean> {
    const until = performance.now() + this.settings.heartbeatMs;
    while (buffered() >= this.settings.maxBufferBytes && !closed()) {
      if (performance.now() > until) return false;
      await sleep(20);
    }
    return true;
  }
}

function frame(event: StreamEvent): string {
  return `id: ${encodeStreamPosition(event.position)}\nevent: ${event.kind}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
