import { request } from 'node:https';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { SETTLE_DEADLINE_MS } from './deadlines';

export interface SseEvent {
  event: string;
  id: string;
  data: any;
}

/**
 * A Server-Sent Events reader over HTTPS that trusts exactly the app's certificate: collects the
 * events of one connection as they arrive (GET /v1/calls/stream).
 */
export class SseConnection {
  readonly events: SseEvent[] = [];
  /** Comment lines (heartbeats) received. */
  comments = 0;
  ended = false;
  /** The response ended as HTTP ends one (its last chunk), not by a cut connection. */
  complete = false;
  private pending = '';
  private readonly waiters = new Set<() => void>();

  private constructor(
    readonly response: IncomingMessage,
    private readonly req: ClientRequest,
    paused: boolean,
  ) {
    response.setEncoding('utf8');
    if (!paused) this.resume();
    const end = () => {
      this.ended = true;
      this.notify();
    };
    response.on('end', () => {
      this.complete = true;
      end();
    });
    response.on('close', end);
    response.on('error', end);
  }

  /**
   * Opens a stream; a non-200 answer is returned with its JSON body instead. `paused`: a client
   * that reads nothing until resume() (Node stops reading the socket once its buffer is full).
   */
  static open(
    origin: string,
    ca: string | undefined,
    key: string,
    options: { lastEventId?: string; query?: string; paused?: boolean } = {},
  ): Promise<SseConnection | { status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const url = new URL(`/v1/calls/stream${options.query ? `?${options.query}` : ''}`, origin);
      const req = request(
        url,
        {
          ca,
          agent: false,
          headers: {
            authorization: `Bearer ${key}`,
            accept: 'text/event-stream',
            ...(options.lastEventId !== undefined ? { 'last-event-id': options.lastEventId } : {}),
          },
        },
        (response) => {
          if (response.statusCode === 200) return resolve(new SseConnection(response, req, options.paused === true));
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  /** The id of the last event received whole: where to resume. */
  get lastEventId(): string {
    return this.events.at(-1)!.id;
  }

  ofKind(kind: string): SseEvent[] {
    return this.events.filter((e) => e.event === kind);
  }

  /** Until `done` holds for the events so far (a hang guard, never a measurement). */
  async until(done: (events: SseEvent[]) => boolean, what: string): Promise<void> {
    const deadline = Date.now() + SETTLE_DEADLINE_MS;
    while (!done(this.events)) {
      if (this.ended) throw new Error(`the stream ended before ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} on the stream within the settle deadline`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1000));
        this.waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Starts (or restarts) reading. */
  resume(): void {
    if (this.response.listenerCount('data') === 0) this.response.on('data', (chunk: string) => this.take(chunk));
  }

  close(): void {
    this.req.destroy();
    this.response.destroy();
  }

  private take(chunk: string): void {
    this.pending += chunk;
    let end: number;
    while ((end = this.pending.indexOf('\n\n')) >= 0) {
      const block = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 2);
      const fields: Record<string, string> = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          this.comments++;
          continue;
        }
        const colon = line.indexOf(':');
        const name = colon < 0 ? line : line.slice(0, colon);
        fields[name] = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      }
      if (fields.data !== undefined)
        this.events.push({ event: fields.event ?? 'message', id: fields.id ?? '', data: JSON.parse(fields.data) });
    }
    this.notify();
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
    this.waiters.clear();
  }
}
