import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppLogger } from '../../platform/logging/logging';
import { EventMetadata, GlobalPosition, VersionConflictError } from '../../infrastructure/event-store/event-store.port';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError } from '../../shared/domain-error';
import { CommandRunner } from '../../eventsourcing/command-runner';
import { apiKeyDecider, apiKeyStream } from '../domain/api-key.decider';
import type { Environment } from '../../shared/api-key-scopes';
import { AUTH_SETTINGS, AuthSettings } from '../../platform/config/auth.settings';
import { READ_YOUR_WRITES, ReadYourWrites } from '../../eventsourcing/read-your-writes.port';
import { generateApiKey, hashApiKey, keyHint } from '../../shared/api-key';

export const BOOTSTRAP_ADMIN_KEY_ID = 'key_admin';

export interface IssuedAdminKey {
  keyId: string;
  /** The key itself: shown once, never stored. */
  key: string;
  position: GlobalPosition | null;
}

/**
 * Issues an admin key (scopes ["admin"], no account) as an ordinary ApiKeyIssued event on a
 * stream that must not exist yet ("no stream": of two concurrent issuers, exactly one wins).
 */
export async function issueAdminKey(
  runner: CommandRunner,
  issue: { keyId: string; environment: Environment; at: Date; name: string },
  metadata: EventMetadata,
): Promise<IssuedAdminKey> {
  const key = generateApiKey(issue.environment);
  const command = {
    type: 'IssueApiKey' as const,
    data: {
      keyId: issue.keyId,
      accountId: null,
      name: issue.name,
      scopes: ['admin' as const],
      environment: issue.environment,
      keyHash: hashApiKey(key),
      keyHint: keyHint(key),
      expiresAt: null,
      at: issue.at,
    },
  };
  const outcome = await runner.run(apiKeyStream(issue.keyId), apiKeyDecider, command, metadata, {
    expected: 'no_stream',
  });
  return { keyId: issue.keyId, key, position: outcome.position };
}

/** True when the error says the key's stream already exists. */
export function alreadyIssued(error: unknown): boolean {
  return (
    error instanceof VersionConflictError ||
    (error instanceof DomainError && ['conflict', 'precondition_failed'].includes(error.code))
  );
}

/**
 * Without ADMIN_API_KEY, the first start issues an admin key and hands it to main() to print.
 * It is issued only once the server listens: a start that fails before (port in use) issues
 * nothing, so the next start issues one and prints it; no key exists that nobody was shown.
 */
@Injectable()
export class AdminBootstrap {
  private readonly logger: Logger;

  constructor(
    @Inject(AUTH_SETTINGS) private readonly settings: AuthSettings,
    private readonly runner: CommandRunner,
    @Inject(READ_YOUR_WRITES) private readonly readModels: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
    logging: AppLogger,
  ) {
    this.logger = logging.for('bootstrap');
  }

  /** The generated key on the first start; null when ADMIN_API_KEY is set or a key was issued before. */
  async issueOnFirstStart(): Promise<string | null> {
    if (this.settings.adminApiKey) {
      this.logger.info('admin key: ADMIN_API_KEY from the environment');
      return null;
    }
    try {
      const issued = await issueAdminKey(
        this.runner,
        {
          keyId: BOOTSTRAP_ADMIN_KEY_ID,
          environment: this.settings.appEnv,
          at: this.clock.now(),
          name: 'bootstrap admin',
        },
        { actor: 'system' },
      );
      // Printed keys work at once: the credential lookup reads this read model.
      await this.readModels.waitFor(issued.position);
      return issued.key;
    } catch (error) {
      if (alreadyIssued(error)) return null;
      throw error;
    }
  }
}
