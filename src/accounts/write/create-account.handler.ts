import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Inject } from '@nestjs/common';
import { EventMetadata } from '../../infrastructure/event-store/event-store.port';
import { READ_YOUR_WRITES, ReadYourWrites } from '../../eventsourcing/read-your-writes.port';
import { CLOCK, Clock } from '../../shared/clock';
import { newId } from '../../shared/ids';
import { CommandRunner } from '../../eventsourcing/command-runner';
import { accountDecider, accountStream } from '../domain/account.decider';
import { AccountDto } from '../contracts/account.dto';

export class CreateAccount {
  constructor(
    readonly name: string,
    readonly metadata: EventMetadata,
  ) {}
}

@CommandHandler(CreateAccount)
export class CreateAccountHandler implements ICommandHandler<CreateAccount, AccountDto> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(READ_YOUR_WRITES) private readonly readModels: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ name, metadata }: CreateAccount): Promise<AccountDto> {
    const accountId = newId('acct');
    const outcome = await this.runner.run(
      accountStream(accountId),
      accountDecider,
      { type: 'CreateAccount', data: { accountId, name: name.trim(), at: this.clock.now() } },
      metadata,
    );
    await this.readModels.waitFor(outcome.position);
    const created = outcome.events[0].data;
    return { id: created.account_id, name: created.name, created_at: created.created_at };
  }
}
