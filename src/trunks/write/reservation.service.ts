import { Injectable } from '@nestjs/common';
import { EventMetadata } from '../../infrastructure/event-store/event-store.port';
import { DomainError } from '../../shared/domain-error';
import { CommandRunner } from '../../eventsourcing/command-runner';
import { reservationDecider } from '../domain/reservation.decider';

/** Tells whether a holder no longer needs its value (its resource was deleted or never created). */
export type StaleHolderCheck = (holderId: string, since: Date) => Promise<boolean>;

export interface ReservationRequest {
  stream: string;
  /** What the value is, for the conflict message: `sip_username "alice"`. */
  label: string;
  ownerId: string;
  at: Date;
  metadata: EventMetadata;
}

@Injectable()
export class Reservations {
  constructor(private readonly runner: CommandRunner) {}

  /**
   * Holds the value for ownerId, or throws 409 conflict. A holder left behind by a crash between
   * reserving and creating (or deleting and releasing) is taken over once `isStale` says so.
   */
  async reserve(request: ReservationRequest, isStale: StaleHolderCheck): Promise<void> {
    const decider = reservationDecider(request.label);
    try {
      await this.runner.run(
        request.stream,
        decider,
        { type: 'Reserve', data: { ownerId: request.ownerId, at: request.at } },
        request.metadata,
      );
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'conflict') throw error;
      const holder = await this.holderOf(request.stream);
      if (!holder || !(await isStale(holder.id, holder.since)))
        throw new DomainError('conflict', `${request.label} is already in use`);
      await this.runner.run(
        request.stream,
        decider,
        { type: 'Reserve', data: { ownerId: request.ownerId, at: request.at, takeOverFrom: holder.id } },
        request.metadata,
      );
    }
  }

  async release(request: ReservationRequest): Promise<void> {
    await this.runner.run(
      request.stream,
      reservationDecider(request.label),
      { type: 'Release', data: { ownerId: request.ownerId, at: request.at } },
      request.metadata,
    );
  }

  private async holderOf(stream: string): Promise<{ id: string; since: Date } | null> {
    const { state } = await this.runner.load(stream, reservationDecider(''));
    return state.holder && state.since ? { id: state.holder, since: new Date(state.since) } : null;
  }
}
