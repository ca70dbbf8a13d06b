import { compareFeedCursors } from '../../calls/read/call-changes.queries';
import { compareRejectionPositions } from '../../rejections/read/rejection-changes.queries';
import { StreamPosition } from './call-stream.position';
import { CallStreamReader, StreamEvent } from './call-stream.reader';
import { StoredNotices } from './stored-notices';

/** One open stream, as its account's feed sees it. */
export interface FeedSubscriber {
  /** Where the stream has got to: the feed hands it only what comes after. */
  readonly position: StreamPosition;
  /**
   * False: the stream holds its bound for a client that is not reading, and this round passes it
   * by (it wakes the feed once it has room again).
   */
  takesRound(): boolean;
  /** What a round read after the stream's position, each event carrying the stream's position after it. */
  deliver(events: StreamEvent[]): void;
  /** The round's read failed: the stream ends (its client resumes with Last-Event-ID). */
  fail(error: unknown): void;
}

/**
 * The one reader of an account's stored calls and rejections on this instance, shared by every
 * stream of the account open here. A round reads the store once, from the earliest position among
 * the streams that take it, and hands each stream what comes after its own position, so streams
 * that resumed from older ids catch up in the same reads. A round runs when a notice says the
 * account stored something, when the last one left more to read, when a stream that was passed
 * by has room again, and else CALL_STREAM_POLL_MS after the last. The feed listens and polls only
 * while a stream is open: it stops with its last stream.
 */
export class AccountFeed {
  private readonly subscribers = new Set<FeedSubscriber>();
  private running = false;
  private due = false;
  private resume: () => void = () => undefined;

  constructor(
    private readonly accountId: string,
    private readonly reader: CallStreamReader,
    private readonly notices: StoredNotices,
    private readonly pollMs: number,
    private readonly stopped: () => void,
  ) {}

  /** Adds a stream, starting the feed with its first; the returned function removes it. */
  join(subscriber: FeedSubscriber): () => void {
    this.subscribers.add(subscriber);
    if (!this.running) void this.run();
    return () => {
      if (this.subscribers.delete(subscriber) && this.subscribers.size === 0) this.resume();
    };
  }

  /** A round as soon as the running one (if any) is done. */
  wake(): void {
    this.due = true;
    this.resume();
  }

  private async run(): Promise<void> {
    this.running = true;
    const unlisten = this.notices.listen(this.accountId, () => this.wake());
    try {
      // From the check of the loop's condition to `finally` nothing awaits: a stream cannot join
      // a feed that has decided to stop.
      while (this.subscribers.size > 0) {
        if (!this.due) await this.pause();
        if (this.subscribers.size === 0) break;
        this.due = false;
        await this.round();
      }
    } finally {
      unlisten();
      this.running = false;
      this.stopped();
    }
  }

  /** Until the poll interval has passed, a wake, or the last stream leaving. */
  private pause(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.resume(), this.pollMs);
      this.resume = () => {
        clearTimeout(timer);
        this.resume = () => undefined;
        resolve();
      };
    });
  }

  private async round(): Promise<void> {
    const taking = [...this.subscribers].filter((subscriber) => subscriber.takesRound());
    if (taking.length === 0) return;
    const from = taking.map((subscriber) => subscriber.position).reduce(earlierPosition);
    let read;
    try {
      read = await this.reader.after(this.accountId, from, 'Last-Event-ID');
    } catch (error) {
      for (const subscriber of taking) subscriber.fail(error);
      return;
    }
    for (const subscriber of taking)
      if (this.subscribers.has(subscriber)) subscriber.deliver(eventsAfter(read.events, subscriber.position));
    if (read.more) this.due = true;
  }
}

/** The earlier of two positions in each of its two orders: reading from it misses nothing either needs. */
function earlierPosition(a: StreamPosition, b: StreamPosition): StreamPosition {
  return {
    callsCursor: compareFeedCursors(a.callsCursor, b.callsCursor) <= 0 ? a.callsCursor : b.callsCursor,
    rejections: compareRejectionPositions(a.rejections, b.rejections) <= 0 ? a.rejections : b.rejections,
  };
}

/**
 * The events of a read (calls, then rejections, each in its order) that come after `from`, each
 * carrying `from` advanced by it: a stream ahead of the read's start skips what it already sent.
 */
export function eventsAfter(events: StreamEvent[], from: StreamPosition): StreamEvent[] {
  const after: StreamEvent[] = [];
  let position = from;
  for (const event of events) {
    if (event.kind === 'call') {
      if (compareFeedCursors(event.position.callsCursor, position.callsCursor) <= 0) continue;
      position = { ...position, callsCursor: event.position.callsCursor };
    } else {
      if (compareRejectionPositions(event.position.rejections, position.rejections) <= 0) continue;
      position = { ...position, rejections: event.position.rejections };
    }
    after.push({ ...event, position } as StreamEvent);
  }
  return after;
}
