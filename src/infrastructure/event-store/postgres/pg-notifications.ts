import { Client, type ClientConfig } from 'pg';
import type { EventStoreLogger } from '../event-store.logger';
import { LISTEN, NOTIFY_CHANNEL, notify } from './event-store.sql';
import type { SqlClient } from './sql-client';

/**
 * Cross-process wake-ups over LISTEN/NOTIFY. Stores in other processes (or other instances in
 * this one) hear about appends within a round trip instead of at their next poll.
 */
export interface CrossProcessSignal {
  /** Called after each committed append. */
  publish(): void;
  /** Starts listening (once); `onSignal` runs for every notification about this schema. */
  listen(onSignal: () => void): void;
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 1000;

export class PgNotifications implements CrossProcessSignal {
  private sending = false;
  private pending = false;
  /** The listening connection, or the one being opened. */
  private current: Client | undefined;
  private listening = false;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private onSignal: () => void = () => undefined;

  constructor(
    private readonly sql: SqlClient,
    private readonly connection: ClientConfig,
    private readonly schema: string,
    private readonly logger: EventStoreLogger,
  ) {}

  /**
   * NOTIFY runs after the append's commit, not inside it: a notifying commit holds a
   * cluster-wide lock through its WAL flush, which would serialise every append. Coalesced: at
   * most one in flight, and one more after it if appends committed meanwhile.
   */
  publish(): void {
    if (this.closed) return;
    if (this.sending) {
      this.pending = true;
      return;
    }
    this.sending = true;
    this.sql
      .query(notify.text, notify.values({ schema: this.schema }))
      .catch((error: unknown) =>
        this.logger.warn({ err: error }, 'event store: NOTIFY failed; other processes fall back to polling'),
      )
      .finally(() => {
        this.sending = false;
        if (this.pending) {
          this.pending = false;
          this.publish();
        }
      });
  }

  listen(onSignal: () => void): void {
    if (this.listening || this.closed) return;
    this.listening = true;
    this.onSignal = onSignal;
    void this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const current = this.current;
    this.current = undefined;
    await current?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({ ...this.connection, application_name: 'trunkline-event-store-listener' });
    this.current = client;
    client.on('notification', (message) => {
      if (message.channel === NOTIFY_CHANNEL && message.payload === this.schema) this.onSignal();
    });
    client.on('error', (error) => this.reconnectLater(client, error));
    client.on('end', () => this.reconnectLater(client, new Error('listener connection ended')));
    try {
      await client.connect();
      await client.query(LISTEN);
      if (this.closed) return; // close() has ended it
      this.onSignal(); // notifications sent while we were not listening are lost: catch up once
    } catch (error) {
      this.reconnectLater(client, error);
    }
  }

  private reconnectLater(client: Client, error: unknown): void {
    if (this.closed || client !== this.current) return;
    this.current = undefined;
    client.end().catch(() => undefined);
    this.logger.warn({ err: error }, 'event store: LISTEN connection lost; polling until it is back');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, RECONNECT_DELAY_MS);
  }
}
