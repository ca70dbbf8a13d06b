import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port';
import { generateApiKey, hashApiKey, keyHint } from '../../shared/api-key';
import { WRITE_SETTINGS, WriteSettings } from '../../platform/config/write.settings';
import { READ_YOUR_WRITES, ReadYourWrites } from '../../eventsourcing/read-your-writes.port';
import { KEY_REVOCATIONS, KeyRevocations } from './key-revocations.port';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError } from '../../shared/domain-error';
import { newId } from '../../shared/ids';
import { accountStream } from '../../accounts/domain/account.decider';
import { CommandRunner } from '../../eventsourcing/command-runner';
import { apiKeyDecider, apiKeyStream } from '../domain/api-key.decider';
import { PLATFORM_SCOPES, Scope } from '../../shared/api-key-scopes';
import { IssuedApiKeyDto } from '../contracts/api-key.dto';

export class IssueApiKey {
  constructor(
    readonly input: { accountId: string | null; name: string; scopes: Scope[]; expiresAt: Date | null },
    readonly metadata: EventMetadata,
  ) {}
}

export class RevokeApiKey {
  constructor(
    readonly keyId: string,
    readonly metadata: EventMetadata,
  ) {}
}

@CommandHandler(IssueApiKey)
export class IssueApiKeyHandler implements ICommandHandler<IssueApiKey, IssuedApiKeyDto> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(READ_YOUR_WRITES) private readonly readModels: ReadYourWrites,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(WRITE_SETTINGS) private readonly settings: WriteSettings,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, metadata }: IssueApiKey): Promise<IssuedApiKeyDto> {
    await this.checkOwner(input.accountId, input.scopes);
    const key = generateApiKey(this.settings.appEnv);
    const keyId = newId('key');
    const outcome = await this.runner.run(
      apiKeyStream(keyId),
      apiKeyDecider,
      {
        type: 'IssueApiKey',
        data: {
          ...input,
          keyId,
          environment: this.settings.appEnv,
          keyHash: hashApiKey(key),
          keyHint: keyHint(key),
          at: this.clock.now(),
        },
      },
      metadata,
    );
    await this.readModels.waitFor(outcome.position);
    const issued = outcome.events[0];
    if (issued.type !== 'ApiKeyIssued') throw new Error('unexpected event');
    const { key_hash: _hash, key_id: id, ...rest } = issued.data;
    return { id, key, ...rest };
  }

  /** Admin and gateway keys belong to no account; every other key belongs to an existing account. */
  private async checkOwner(accountId: string | null, scopes: Scope[]): Promise<void> {
    const platform = PLATFORM_SCOPES.find((scope) => scopes.includes(scope));
    if (platform) {
      if (accountId !== null || new Set(scopes).size > 1) {
        throw new DomainError(
          'missing_required_field',
          `A ${platform} key has scopes ["${platform}"] and no account_id`,
          { param: 'scopes', reason: 'invalid_format' },
        );
      }
      return;
    }
    if (accountId === null)
      throw new DomainError(
        'missing_required_field',
        'account_id is required for keys with scopes full, read or ingest',
        { param: 'account_id', reason: 'missing' },
      );
    const [created] = await this.events.readStream(accountStream(accountId), { maxCount: 1 });
    if (!created) throw new DomainError('not_found', `Account ${accountId} not found`);
  }
}

@CommandHandler(RevokeApiKey)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKey, void> {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(READ_YOUR_WRITES) private readonly readModels: ReadYourWrites,
    @Inject(KEY_REVOCATIONS) private readonly revocations: KeyRevocations,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ keyId, metadata }: RevokeApiKey): Promise<void> {
    if (!/^key_[A-Za-z0-9_]{1,64}$/.test(keyId)) throw new DomainError('not_found', `API key ${keyId} not found`);
    const outcome = await this.runner.run(
      apiKeyStream(keyId),
      apiKeyDecider,
      { type: 'RevokeApiKey', data: { keyId, at: this.clock.now() } },
      metadata,
    );
    // Revocation must hold on every instance before the 204: the auth lookup reads this model,
    // and instances that cache credentials drop this one (in that order: a lookup racing the
    // revocation cannot put the old record back).
    await this.readModels.waitFor(outcome.position);
    for (const event of outcome.events)
      if (event.type === 'ApiKeyRevoked') await this.revocations.revoked(event.data.key_hash);
  }
}
