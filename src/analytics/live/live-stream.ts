import type { ServerResponse } from 'node:http';
import type { PassThrough } from 'node:stream';
import type { Logger } from 'pino';
import { AccountFeed, FeedSubscriber } from './account-feed';
import { encodeStreamPosition, StreamPosition } from './call-stream.position';
import { StreamEvent, StreamRead } from './call-stream.reader';
import { CallStreamSettings } from './call-stream.settings';

/** How often a stream that holds its bound looks whether the client has read. */
const BOUND_CHECK_MS = 20;

/**
 * One client's open stream: its position, its response, its heartbeat and its bound. Its
 * account's feed reads for it; what it holds for the client is bounded: it takes a round only
 * while it holds less than CALL_STREAM_MAX_BUFFER_BYTES, so it holds at most the bound plus one
 * round, and a client that leaves it holding that much for a heartbeat interval is cut off (it
 * resumes with Last-Event-ID). Every way it ends (the client leaving, a cut, a failed read, the
 * service stopping) goes through `end`.
 */
export class LiveStream implements FeedSubscriber {
  private closed = false;
  /** A round passed it by while it held its bound: it wakes the feed once it has room. */
  private behind = false;
  private lastWrite = performance.now();
  private heartbeat: NodeJS.Timeout | null = null;
  private boundCheck: NodeJS.Timeout | null = null;
  private leave: () => void = () => undefined;

  constructor(
    private current: StreamPosition,
    private readonly body: PassThrough,
    private readonly response: ServerResponse,
    private readonly feed: AccountFeed,
    private readonly settings: CallStreamSettings,
    private readonly log: { logger: Logger; accountId: string },
    private readonly ended: () => void,
  ) {}

  get position(): StreamPosition {
    return this.current;
  }

  /** Sends what start() read, then joins the account's feed. */
  open(first: StreamRead): void {
    this.response.once('close', () => this.end());
    this.leave = this.feed.join(this);
    this.deliver(first.events);
    if (first.more) this.feed.wake();
    this.scheduleHeartbeat(this.settings.heartbeatMs);
  }

  takesRound(): boolean {
    if (this.closed) return false;
    if (this.hasRoom()) return true;
    this.behind = true;
    this.watchBound();
    return false;
  }

  deliver(events: StreamEvent[]): void {
    if (this.closed) return;
    for (const event of events) this.body.write(frame(event));
    if (events.length > 0) {
      this.current = events[events.length - 1].position;
      this.lastWrite = performance.now();
    }
    if (!this.hasRoom()) this.watchBound();
  }

  fail(error: unknown): void {
    this.log.logger.error({ err: error, account_id: this.log.accountId }, 'call stream failed; the client resumes');
    this.response.destroy();
    this.end();
  }

  /** Ends the stream once: its response ends normally unless it was destroyed (cut, failed, the client gone). */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.heartbeat) clearTimeout(this.heartbeat);
    if (this.boundCheck) clearTimeout(this.boundCheck);
    this.leave();
    this.ended();
    if (!this.response.destroyed) this.body.end();
  }

  private buffered(): number {
    return this.body.writableLength + this.body.readableLength + this.response.writableLength;
  }

  private hasRoom(): boolean {
    return this.buffered() < this.settings.maxBufferBytes;
  }

  /** From now, a heartbeat interval for the client to read below the bound, or the stream is cut. */
  private watchBound(): void {
    if (this.boundCheck || this.closed) return;
    const until = performance.now() + this.settings.heartbeatMs;
    const check = () => {
      this.boundCheck = null;
      if (this.closed) return;
      if (this.hasRoom()) {
        if (this.behind) this.feed.wake();
        this.behind = false;
      } else if (performance.now() > until) {
        this.log.logger.warn(
          { account_id: this.log.accountId, buffered: this.buffered() },
          'call stream cut: the client is not reading',
        );
        this.response.destroy();
        this.end();
      } else this.boundCheck = setTimeout(check, BOUND_CHECK_MS);
    };
    this.boundCheck = setTimeout(check, BOUND_CHECK_MS);
  }

  /** A comment line after a heartbeat interval without a write (none while the bound is held). */
  private scheduleHeartbeat(inMs: number): void {
    this.heartbeat = setTimeout(() => {
      if (this.closed) return;
      const due = this.settings.heartbeatMs - (performance.now() - this.lastWrite);
      if (due > 0) return this.scheduleHeartbeat(due);
      if (this.hasRoom()) {
        this.body.write(': heartbeat\n\n');
        this.lastWrite = performance.now();
      }
      this.scheduleHeartbeat(this.settings.heartbeatMs);
    }, inMs);
  }
}

function frame(event: StreamEvent): string {
  return `id: ${encodeStreamPosition(event.position)}\nevent: ${event.kind}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
