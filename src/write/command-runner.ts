import { Inject, Injectable } from '@nestjs/common';
import { Decider, fold } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import { newEventId } from '../shared/ids';
import {
  AppendResult,
  EVENT_STORE,
  EventMetadata,
  EventStore,
  ExpectedVersion,
  GlobalPosition,
  VersionConflictError,
} from '../infrastructure/event-store/event-store.port';

export interface DomainEvent {
  type: string;
  data: object;
}

export interface CommandOutcome<E, S> {
  events: E[];
  /** State after the new events. */
  state: S;
  /** Position of the last new event; null when the command changed nothing. */
  position: GlobalPosition | null;
  revision: number;
  /** The ids of the new events, in order. */
  eventIds: string[];
}

/**
 * Each round of a conflict lets at least one writer through, so N writers racing on one stream
 * need up to N attempts; appends to one stream are also queued per process (the hash chain), so
 * rounds are serial. 64 covers the bursts the API sees on one trunk (50 parallel writes in
 * test/e2e/trunks-concurrency); each retry backs off with jitter.
 */
const MAX_ATTEMPTS = 64;

/**
 * read → fold → decide → append with the expected version, retried a bounded number of times on
 * a version conflict (another writer got there first; deciding again on the fresh state is safe
 * because deciders are pure).
 */
@Injectable()
export class CommandRunner {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /** The current state of a stream and the revision of its last event (-1: no stream). */
  async load<C, E extends DomainEvent, S>(
    streamId: string,
    decider: Decider<C, E, S>,
  ): Promise<{ state: S; revision: number }> {
    const stored = await this.store.readStream(streamId);
    return {
      state: fold(
        decider,
        stored.map((e) => ({ type: e.type, data: e.data }) as E),
      ),
      revision: stored.length - 1,
    };
  }

  /**
   * The one decide-and-append step every write goes through: decide on a known state, append
   * expecting the revision it was known at. A VersionConflictError means the stream moved on:
   * run() reads again and retries; a caller that decided on a read model's view drops its outcome.
   */
  async decideAndAppend<C, E extends DomainEvent, S>(
    streamId: string,
    decider: Decider<C, E, S>,
    command: C,
    known: { state: S; revision: number },
    metadata: EventMetadata,
    expectedVersion?: ExpectedVersion,
  ): Promise<CommandOutcome<E, S>> {
    const { state, revision } = known;
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, position: null, revision, eventIds: [] };
    const expected = expectedVersion ?? (revision < 0 ? 'no_stream' : revision);
    const eventIds = events.map(() => newEventId());
    const result: AppendResult = await this.store.append(
      streamId,
      events.map((e, i) => ({ id: eventIds[i], type: e.type, data: e.data, metadata })),
      expected,
    );
    return {
      events,
      state: events.reduce(decider.evolve, state),
      position: result.position,
      revision: result.nextExpectedVersion,
      eventIds,
    };
  }

  async run<C, E extends DomainEvent, S>(
    streamId: string,
    decider: Decider<C, E, S>,
    command: C,
    metadata: EventMetadata,
    options: { expected?: ExpectedVersion } = {},
  ): Promise<CommandOutcome<E, S>> {
    for (let attempt = 1; ; attempt++) {
      const known = await this.load(streamId, decider);
      try {
        return await this.decideAndAppend(streamId, decider, command, known, metadata, options.expected);
      } catch (error) {
        if (!(error instanceof VersionConflictError)) throw error;
        if (options.expected !== undefined)
          throw new DomainError(
            'precondition_failed',
            `${streamId} has changed since version ${String(options.expected)}`,
          );
        if (attempt >= MAX_ATTEMPTS)
          throw new DomainError('conflict', 'Too many concurrent changes to the same resource; retry');
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * attempt)));
      }
    }
  }
}
