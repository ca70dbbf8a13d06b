import { StoredEvent } from '../infrastructure/event-store/event-store.port';
import { WriteOp } from '../infrastructure/read-model/read-model-store.port';

/**
 * What a projection may read while applying an event: the read model as it will be once the
 * writes of the earlier events of the same batch are applied (they are not written yet).
 */
export interface ProjectionView {
  get(key: string): Promise<string | null>;
}

/**
 * A read-model projection: from one event to the writes it causes. Writes are set-like (set,
 * hset, zadd, del), so applying an event twice changes nothing.
 */
export interface Projection {
  readonly name: string;
  apply(event: StoredEvent, view: ProjectionView): WriteOp[] | Promise<WriteOp[]>;
}
