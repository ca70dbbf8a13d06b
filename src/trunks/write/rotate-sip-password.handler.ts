import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventMetadata } from '../../infrastructure/event-store/event-store.port';
import { SECRET_BOX, SecretBox } from '../../infrastructure/secrets/secret-box';
import { READ_YOUR_WRITES, ReadYourWrites } from '../../eventsourcing/read-your-writes.port';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError } from '../../shared/domain-error';
import { randomBase62 } from '../../shared/ids';
import { CommandRunner } from '../../eventsourcing/command-runner';
import { trunkDecider, trunkStream } from '../domain/trunk.decider';
import { PasswordRotatedDto } from './dto/trunk-responses.dto';

/** 32 base62 characters from the CSPRNG: about 190 bits. */
export const GENERATED_PASSWORD_LENGTH = 32;

export class RotateSipPassword {
  constructor(
    readonly trunkId: string,
    readonly accountId: string,
    readonly metadata: EventMetadata,
  ) {}
}

/**
 * The new password is generated here, returned once, and replaces the old one in the gateway's
 * read model before the response: the very next lookup sees only the new HA1.
 */
@CommandHandler(RotateSipPassword)
export class RotateSipPasswordHandler implements ICommandHandler<RotateSipPassword, PasswordRotatedDto> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(READ_YOUR_WRITES) private readonly readModels: ReadYourWrites,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ trunkId, accountId, metadata }: RotateSipPassword): Promise<PasswordRotatedDto> {
    const password = randomBase62(GENERATED_PASSWORD_LENGTH);
    const at = this.clock.now();
    const { state: current } = await this.runner.load(trunkStream(trunkId), trunkDecider);
    // Encrypting needs the trunk's data key: only a live trunk of this account has one to use.
    if (current.status === 'none' || current.status === 'deleted' || current.accountId !== accountId)
      throw new DomainError('not_found', `Trunk ${trunkId} not found`);
    const sipPassword = await this.secrets.encrypt(trunkId, 'sip_password', password);
    const outcome = await this.runner.run(
      trunkStream(trunkId),
      trunkDecider,
      { type: 'RotateSipPassword', data: { accountId, sipPassword, at } },
      metadata,
    );
    await this.readModels.waitFor(outcome.position);
    const rotated = outcome.events[0];
    if (rotated.type !== 'SipPasswordRotated') throw new Error('unexpected event');
    return {
      id: trunkId,
      sip_username: rotated.data.sip_username,
      sip_password: password,
      rotated_at: rotated.data.rotated_at,
    };
  }
}
