import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { Logger } from 'pino';
import { AppLogger } from '../../platform/logging/logging';
import { DomainError } from '../../shared/domain-error';
import { decodeStreamPosition, encodeStreamPosition, StreamPosition } from './call-stream.position';
import { AccountFeed } from './account-feed';
import { CallStreamReader, StreamRead } from './call-stream.reader';
import { CALL_STREAM_SETTINGS, CallStreamSettings } from './call-stream.settings';
import { LiveStream } from './live-stream';
import { StoredNotices } from './stored-notices';

/** A stream that has read its first events, ready to be sent. */
export interface OpenStream {
  body: PassThrough;
  /** Runs until the client leaves, the stream is cut or the service stops. */
  run(response: ServerResponse): void;
}

/**
 * The open live streams of this instance (GET /v1/calls/stream, docs/analytics.md "Calls as they
 * happen"). The streams of one account share one reader, the account's feed (account-feed.ts):
 * it reads the store once a round for all of them, when a notice says the account stored
 * something, else every CALL_STREAM_POLL_MS. Each stream keeps its own position (it resumes by
 * its own Last-Event-ID) and its own bound (live-stream.ts).
 */
@Injectable()
export class CallStreams implements BeforeApplicationShutdown {
  private readonly open = new Set<LiveStream>();
  private readonly feeds = new Map<string, AccountFeed>();
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
    return { body, run: (response) => this.run(accountId, from, first, body, response) };
  }

  /** Streams open on this instance now. */
  get openStreams(): number {
    return this.open.size;
  }

  /** Accounts whose feed is running on this instance now (one per account with an open stream). */
  get runningFeeds(): number {
    return this.feeds.size;
  }

  /** Ends every open stream and refuses new ones: the service is stopping (clients resume elsewhere). */
  endAll(): void {
    this.closing = true;
    for (const stream of [...this.open]) stream.end();
  }

  beforeApplicationShutdown(): void {
    this.endAll();
  }

  private run(accountId: string, from: StreamPosition, first: StreamRead, body: PassThrough, response: ServerResponse) {
    const log = { logger: this.logger, accountId };
    const stream = new LiveStream(from, body, response, this.feedOf(accountId), this.settings, log, () =>
      this.open.delete(stream),
    );
    this.open.add(stream);
    stream.open(first);
    if (this.closing) stream.end();
  }

  private feedOf(accountId: string): AccountFeed {
    const running = this.feeds.get(accountId);
    if (running) return running;
    const feed = new AccountFeed(accountId, this.reader, this.notices, this.settings.pollMs, () => {
      if (this.feeds.get(accountId) === feed) this.feeds.delete(accountId);
    });
    this.feeds.set(accountId, feed);
    return feed;
  }
}
