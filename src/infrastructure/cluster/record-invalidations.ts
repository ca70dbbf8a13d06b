import type { Logger } from 'pino';
import type { RecordCache } from '../read-model/record-cache';
import { publishDrop } from './acked-drop';
import type { MessageBus } from './cluster.port';

const RECORD_DROPS = { what: 'record', ttlSetting: 'RECORD_CACHE_TTL_MS' };

/** The longest a batch's checkpoint waits for the other instances to drop their copies. */
export const RECORD_DROP_ACK_TIMEOUT_MS = 2000;
/** Above this many keys a batch (a rebuild's, a large catch-up's) asks for everything to be dropped. */
export const RECORD_DROP_ALL_ABOVE = 500;

const DROP_ALL = '*';

export const recordDropChannel = (namespace: string): string => `${namespace}records:changed`;

/**
 * Keeps every instance's RecordCache in step with the projection leader's writes: `dropped(keys)`
 * drops the copies here and resolves once every instance listening on the bus has dropped them
 * too (an acknowledged publish), or after RECORD_DROP_ACK_TIMEOUT_MS, logged: the copies' TTL is
 * then the bound. The leader calls it between a batch's write and its checkpoint announcement
 * (led-projection.ts), so a write's read-your-writes wait includes every instance's drop. A
 * reconnect of the bus subscriber, after which drops may have been lost, empties the cache here.
 * An instance without a cache still publishes (other instances may hold copies) but listens to nothing.
 */
export class RecordInvalidations {
  private constructor(
    private readonly cache: RecordCache | null,
    private readonly bus: MessageBus,
    private readonly channel: string,
    private readonly logger: Logger,
    private readonly ackTimeoutMs: number,
    /** The keys any instance may hold copies of: the same on every instance, whatever its own cache. */
    readonly covers: (key: string) => boolean,
  ) {}

  static async connect(
    cache: RecordCache | null,
    covers: (key: string) => boolean,
    bus: MessageBus,
    namespace: string,
    logger: Logger,
    ackTimeoutMs = RECORD_DROP_ACK_TIMEOUT_MS,
  ): Promise<RecordInvalidations> {
    const channel = recordDropChannel(namespace);
    if (cache?.enabled) {
      await bus.subscribeAcked(channel, (message) => {
        if (message === DROP_ALL) return cache.clear();
        try {
          cache.drop(JSON.parse(message) as string[]);
        } catch {
          cache.clear(); // not a list of keys: drop everything rather than keep a copy it meant
        }
      });
      bus.onResync(() => cache.clear());
    }
    return new RecordInvalidations(cache?.enabled ? cache : null, bus, channel, logger, ackTimeoutMs, covers);
  }

  /** Every instance dropped its copies of `keys` (or the wait timed out, logged). */
  async dropped(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const all = keys.length > RECORD_DROP_ALL_ABOVE;
    if (all) this.cache?.clear();
    else this.cache?.drop(keys);
    await this.publish(all ? DROP_ALL : JSON.stringify(keys));
  }

  /** Every instance emptied its cache (a new leader, which cannot know what its predecessor left undropped). */
  async droppedAll(): Promise<void> {
    this.cache?.clear();
    await this.publish(DROP_ALL);
  }

  private publish(message: string): Promise<void> {
    return publishDrop(this.bus, this.channel, message, this.ackTimeoutMs, this.logger, RECORD_DROPS);
  }
}
