import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventMetadata } from '../../infrastructure/event-store/event-store.port';
import { SECRET_BOX, SecretBox } from '../../infrastructure/secrets/secret-box';
import { READ_YOUR_WRITES, ReadYourWrites } from '../../eventsourcing/read-your-writes.port';
import { CLOCK, Clock } from '../../shared/clock';
import { CommandRunner } from '../../eventsourcing/command-runner';
import { Reservations } from './reservation.service';
import { trunkDecider, trunkStream } from '../domain/trunk.decider';
import { TrunkSupport } from './trunk-support';

export class DeleteTrunk {
  constructor(
    readonly trunkId: string,
    readonly accountId: string,
    readonly metadata: EventMetadata,
  ) {}
}

/**
 * TrunkDeleted first (the fact), then the names are freed and the data key destroyed: from then
 * on the secrets in the history are unrecoverable. A crash between the steps leaves reservations
 * that the next reserver takes over (their holder is deleted) and a key that a retry destroys.
 */
@CommandHandler(DeleteTrunk)
export class DeleteTrunkHandler implements ICommandHandler<DeleteTrunk, void> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly reservations: Reservations,
    private readonly support: TrunkSupport,
    @Inject(READ_YOUR_WRITES) private readonly readModels: ReadYourWrites,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ trunkId, accountId, metadata }: DeleteTrunk): Promise<void> {
    const at = this.clock.now();
    const outcome = await this.runner.run(
      trunkStream(trunkId),
      trunkDecider,
      { type: 'DeleteTrunk', data: { accountId, at } },
      metadata,
    );
    const deleted = outcome.events[0];
    if (deleted?.type !== 'TrunkDeleted') throw new Error('unexpected event');
    await Promise.all([
      this.reservations.release(this.support.usernameReservation(deleted.data.sip_username, trunkId, at, metadata)),
      this.reservations.release(this.support.nameReservation(accountId, deleted.data.name, trunkId, at, metadata)),
    ]);
    await this.secrets.destroy(trunkId);
    await this.readModels.waitFor(outcome.position, outcome.events);
  }
}
