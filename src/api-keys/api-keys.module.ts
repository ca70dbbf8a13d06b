import { DynamicModule, Module } from '@nestjs/common';
import { CommandRunner } from '../eventsourcing/command-runner';
import type { FeatureWiring } from '../platform/modules/feature-wiring';
import { ApiKeysWriteController } from './http/api-keys.controller';
import { ApiKeysReadController } from './http/api-keys-read.controller';
import { ListApiKeysHandler } from './read/api-keys.queries';
import { AdminBootstrap } from './write/admin-key.bootstrap';
import { IssueApiKeyHandler, RevokeApiKeyHandler } from './write/api-key.handlers';

/**
 * API keys: issued and revoked as events, listed from the read models, the admin key issued on a
 * first start. The wiring binds KEY_REVOCATIONS (revocation reaching every instance's credential
 * cache) and gives the key usage store.
 */
@Module({})
export class ApiKeysModule {
  static forRoot(wiring: FeatureWiring): DynamicModule {
    return {
      module: ApiKeysModule,
      imports: wiring.imports ?? [],
      controllers: [ApiKeysWriteController, ApiKeysReadController],
      providers: [
        ...(wiring.providers ?? []),
        CommandRunner,
        IssueApiKeyHandler,
        RevokeApiKeyHandler,
        ListApiKeysHandler,
        AdminBootstrap,
      ],
    };
  }
}
