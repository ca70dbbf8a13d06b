import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppLogger } from '../logging/logging';
import { VersionConflictError } from '../../infrastructure/event-store/event-store.port';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError } from '../../shared/domain-error';
import { CommandRunner } from '../../write/command-runner';
import { apiKeyDecider, apiKeyStream } from '../../write/api-keys/domain/api-key.decider';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { generateApiKey, hashApiKey, keyHint } from './api-key';

export const BOOTSTRAP_ADMIN_KEY_ID = 'key_admin';

/**
 * Without ADMIN_API_KEY, the first start generates an admin key, keeps its hash as an ordinary
 * ApiKeyIssued event (appended with "no stream", so concurrent first starts make exactly one)
 * and hands it to main() to print once.
 */
@Injectable()
export class AdminBootstrap implements OnApplicationBootstrap {
  private readonly logger: Logger;
  generatedKey: string | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    logging: AppLogger,
  ) {
    this.logger = logging.for('bootstrap');
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.adminApiKey) {
      this.logger.info('admin key: ADMIN_API_KEY from the environment');
      return;
    }
    const key = generateApiKey(this.config.appEnv);
    const command = {
      type: 'IssueApiKey' as const,
      data: {
        keyId: BOOTSTRAP_ADMIN_KEY_ID,
        accountId: null,
        name: 'bootstrap admin',
        scopes: ['admin' as const],
        environment: this.config.appEnv,
        keyHash: hashApiKey(key),
        keyHint: keyHint(key),
        expiresAt: null,
        at: this.clock.now(),
      },
    };
    try {
      await this.runner.run(
        apiKeyStream(BOOTSTRAP_ADMIN_KEY_ID),
        apiKeyDecider,
        command,
        { actor: 'system' },
        { expected: 'no_stream' },
      );
      this.generatedKey = key;
    } catch (error) {
      const exists =
        error instanceof VersionConflictError ||
        (error instanceof DomainError && ['conflict', 'precondition_failed'].includes(error.code));
      if (!exists) throw error;
    }
  }
}
