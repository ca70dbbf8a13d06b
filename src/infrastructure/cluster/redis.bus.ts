import type { MessageBus, MessageHandler } from './cluster.port';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { closeRedisClient, createRedisClient, waitForReady } from '../redis/redis.client';

/** What an acknowledged publish carries: the payload and where to say it was handled. */
interface AckedEnvelope {
  id: string;
  replyTo: string;
  message: string;
}

interface PendingAck {
  received: number;
  expected: number;
  done: (allAcked: boolean) => void;
}

/**
 * Pub/sub between instances on one subscriber connection. Redis does not keep messages for a
 * subscriber that is away, so every reconnect after the first calls the resync handlers: each
 * subscriber re-reads (or forgets) whatever it may have missed.
 */
export class RedisBus implements MessageBus {
  private readonly handlers = new Map<string, MessageHandler[]>();
  private readonly resyncs: (() => void)[] = [];
  private connectedOnce = false;
  /** This instance's own channel, on which the others acknowledge its acked publishes. */
  private readonly replyChannel = `trunkline:bus-ack:${randomBytes(12).toString('hex')}`;
  private readonly pending = new Map<string, PendingAck>();

  private constructor(
    private readonly subscriber: Redis,
    private readonly publisher: Redis,
  ) {
    subscriber.on('message', (channel: string, message: string) => {
      for (const handler of this.handlers.get(channel) ?? []) handler(message);
    });
    subscriber.on('ready', () => {
      if (this.connectedOnce) for (const resync of this.resyncs) resync();
      this.connectedOnce = true;
    });
  }

  /** A dedicated subscriber connection (a subscribed connection can run nothing else). */
  static async connect(
    url: string,
    publisher: Redis,
    onError: (err: Error) => void = () => undefined,
  ): Promise<RedisBus> {
    // The same command timeout as the publisher (REDIS_COMMAND_TIMEOUT_MS): with the default 1 s
    // a SUBSCRIBE held up on a busy machine failed the whole start.
    const subscriber = createRedisClient(url, {
      connectionName: 'trunkline-bus',
      onError,
      commandTimeoutMs: publisher.options.commandTimeout,
    });
    const bus = new RedisBus(subscriber, publisher);
    await waitForReady(subscriber, 10_000);
    bus.connectedOnce = true;
    await bus.subscribe(bus.replyChannel, (id) => bus.acknowledged(id));
    return bus;
  }

  async subscribe(channel: string, handler: MessageHandler): Promise<void> {
    const existing = this.handlers.get(channel);
    if (existing) existing.push(handler);
    else {
      this.handlers.set(channel, [handler]);
      await this.subscriber.subscribe(channel);
    }
  }

  get connected(): boolean {
    return this.subscriber.status === 'ready';
  }

  /** Called after the subscriber reconnects: messages sent meanwhile were lost. */
  onResync(handler: () => void): void {
    this.resyncs.push(handler);
  }

  /** Resolves with the number of instances whose subscriber received the message. */
  publish(channel: string, message: string): Promise<number> {
    return this.publisher.publish(channel, message);
  }

  /**
   * Publishes and resolves once every instance that received the message has run its handler
   * (true), or after `timeoutMs` (false): PUBLISH alone only says the message was queued on the
   * receivers' sockets, not that they acted on it.
   */
  async publishAcked(channel: string, message: string, timeoutMs: number): Promise<boolean> {
    const id = randomBytes(12).toString('hex');
    const envelope: AckedEnvelope = { id, replyTo: this.replyChannel, message };
    let timer: NodeJS.Timeout | undefined;
    // Registered before the publish: acknowledgements can arrive before PUBLISH returns.
    const settled = new Promise<boolean>((resolve) => {
      this.pending.set(id, { received: 0, expected: Number.POSITIVE_INFINITY, done: resolve });
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      const receivers = await this.publisher.publish(channel, JSON.stringify(envelope));
      const entry = this.pending.get(id);
      if (entry) {
        entry.expected = receivers;
        if (entry.received >= receivers) entry.done(true);
      }
      return await settled;
    } finally {
      clearTimeout(timer);
      this.pending.delete(id);
    }
  }

  /** Handles messages sent with publishAcked, and acknowledges each once handled. */
  async subscribeAcked(channel: string, handler: MessageHandler): Promise<void> {
    await this.subscribe(channel, (raw) => {
      let envelope: AckedEnvelope;
      try {
        envelope = JSON.parse(raw) as AckedEnvelope;
      } catch {
        return; // not ours: a stray publish on the channel
      }
      handler(envelope.message);
      this.publisher.publish(envelope.replyTo, envelope.id).catch(() => undefined);
    });
  }

  private acknowledged(id: string): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    entry.received += 1;
    if (entry.received >= entry.expected) entry.done(true);
  }

  close(): Promise<void> {
    return closeRedisClient(this.subscriber);
  }
}
