import type { GlobalPosition } from '../infrastructure/event-store/event-store.port';

/**
 * Read-your-writes: a command answers 2xx only once the read models have applied its own append
 * (bounded; past the bound the write still stands, it is durable, and the delay is logged). The
 * write side states the need; the projections fulfil it (bound in the composition root), so no
 * handler ever imports a read model.
 */
export interface ReadYourWrites {
  /** `events`: the appended events, so a wait can skip read models they do not touch. */
  waitFor(position: GlobalPosition | null, events?: readonly { type: string; data: unknown }[]): Promise<void>;
}

export const READ_YOUR_WRITES = Symbol('ReadYourWrites');
