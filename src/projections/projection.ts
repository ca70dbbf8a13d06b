import { StoredEvent } from '../infrastructure/event-store/event-store.port';
import { WriteOp } from '../infrastructure/read-model/read-model-store.port';

/**
 * A read-model projection: a pure function from one event to the writes it causes. Writes are
 * set-like (hset, zadd, del), so applying an event twice changes nothing.
 */
export interface Projection {
  readonly name: string;
  apply(event: StoredEvent): WriteOp[];
}
