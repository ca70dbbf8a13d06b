import { SETTLE_DEADLINE_MS } from '../../support/deadlines';
import { randomUUID } from 'node:crypto';
import {
  comparePositions,
  type EventStore,
  type EventSubscription,
  type ExpectedVersion,
  type GlobalPosition,
  type NewEvent,
  type StoredEvent,
  VersionConflictError,
} from '../../../src/infrastructure/event-store/event-store.port';

/** Builders, followers and assertions shared by the event-store contract cases. */

export const newEvent = (overrides: Partial<NewEvent> = {}): NewEvent => ({
  id: randomUUID(),
  type: 'ContractEventRecorded',
  data: { value: randomUUID() },
  metadata: { actor: 'contract' },
  ...overrides,
});

export const newEvents = (count: number): NewEvent[] => Array.from({ length: count }, () => newEvent());

/** A prefix no other case uses; every stream of a case starts with it. */
export const newPrefix = (label: string): string => `contract-${label}-${randomUUID().slice(0, 8)}`;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const ids = (events: readonly { id: string }[]): string[] => events.map((e) => e.id);

/** The position of the last event readAll can see now (null when there is none). */
export async function headPosition(store: EventStore): Promise<GlobalPosition | null> {
  let after: GlobalPosition | null = null;
  for (;;) {
    const batch = await store.readAll({ after, maxCount: 1000 });
    if (batch.length === 0) return after;
    after = batch[batch.length - 1].position;
  }
}

/** Every event after `after` (page by page) whose stream starts with `prefix`. */
export async function readAllOf(
  store: EventStore,
  after: GlobalPosition | null,
  prefix: string,
  pageSize = 1000,
): Promise<StoredEvent[]> {
  const found: StoredEvent[] = [];
  for (;;) {
    const batch = await store.readAll({ after, maxCount: pageSize });
    if (batch.length === 0) return found;
    found.push(...batch.filter((e) => e.streamId.startsWith(prefix)));
    after = batch[batch.length - 1].position;
  }
}

export async function expectConflict(
  append: Promise<unknown>,
  streamId: string,
  expected: ExpectedVersion,
): Promise<VersionConflictError> {
  const error = await append.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VersionConflictError);
  const conflict = error as VersionConflictError;
  expect(conflict.streamId).toBe(streamId);
  expect(conflict.expected).toBe(expected);
  return conflict;
}

export interface Delivery {
  event: StoredEvent;
  /** process.hrtime.bigint() when the handler received it. */
  receivedAt: bigint;
}

/** A subscription that records what it is handed; only events of `prefix` are kept. */
export class Follower {
  readonly deliveries: Delivery[] = [];
  readonly batchSizes: number[] = [];
  private readonly subscription: EventSubscription;

  constructor(store: EventStore, after: GlobalPosition | null, prefix: string, batchSize?: number) {
    this.subscription = store.subscribe({ after, batchSize }, async (batch) => {
      const receivedAt = process.hrtime.bigint();
      this.batchSizes.push(batch.length);
      for (const event of batch) if (event.streamId.startsWith(prefix)) this.deliveries.push({ event, receivedAt });
    });
  }

  get events(): StoredEvent[] {
    return this.deliveries.map((d) => d.event);
  }

  async waitForCount(count: number, timeoutMs = SETTLE_DEADLINE_MS): Promise<void> {
    await waitUntil(
      () => this.deliveries.length >= count,
      timeoutMs,
      () => `${this.deliveries.length} of ${count} events`,
    );
  }

  stop(): Promise<void> {
    return this.subscription.stop();
  }
}

export async function waitUntil(done: () => boolean, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs}ms waiting: ${describe()}`);
    await sleep(1);
  }
}

export const isStrictlyIncreasing = (positions: GlobalPosition[]): boolean =>
  positions.every((p, i) => i === 0 || comparePositions(positions[i - 1], p) < 0);
