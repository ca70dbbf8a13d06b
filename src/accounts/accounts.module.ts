import { Module } from '@nestjs/common';
import { CommandRunner } from '../eventsourcing/command-runner';
import { AccountsWriteController } from './http/accounts.controller';
import { AccountsReadController } from './http/accounts-read.controller';
import { GetAccountHandler, ListAccountsHandler } from './read/accounts.queries';
import { CreateAccountHandler } from './write/create-account.handler';

/** Accounts: created by the admin key, read by their own keys. */
@Module({
  controllers: [AccountsWriteController, AccountsReadController],
  providers: [CommandRunner, CreateAccountHandler, ListAccountsHandler, GetAccountHandler],
})
export class AccountsModule {}
