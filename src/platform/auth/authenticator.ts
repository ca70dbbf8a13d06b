import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../shared/domain-error';
import { ApiKeyLookup } from '../../read/api-keys/api-key.lookup';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { environmentOfKey, hashApiKey } from './api-key';
import { Principal } from './principal';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
export const ENV_ADMIN_KEY_ID = 'key_admin_env';

@Injectable()
export class Authenticator {
  private readonly adminHash: Buffer | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly lookup: ApiKeyLookup,
  ) {
    this.adminHash = config.adminApiKey ? Buffer.from(hashApiKey(config.adminApiKey), 'hex') : null;
  }

  async authenticate(authorization: string | undefined, now: Date): Promise<Principal> {
    if (authorization === undefined || authorization.trim() === '') {
      throw new DomainError('missing_authentication', 'Missing Authorization header: send "Authorization: Bearer <API key>"');
    }
    const match = BEARER.exec(authorization);
    if (!match) throw new DomainError('unauthorized', 'Authorization header must be "Bearer <API key>"');
    const key = match[1];
    const environment = environmentOfKey(key);
    if (!environment) throw new DomainError('unauthorized', 'Invalid API key');
    if (environment !== this.config.appEnv) {
      throw new DomainError('unauthorized', `This is a ${environment} key; this service runs in the ${this.config.appEnv} environment`);
    }
    const hash = hashApiKey(key);
    if (this.adminHash && timingSafeEqual(this.adminHash, Buffer.from(hash, 'hex'))) {
      return { keyId: ENV_ADMIN_KEY_ID, accountId: null, scopes: ['admin'], environment };
    }
    const credential = await this.lookup.byHash(hash);
    if (!credential || credential.environment !== environment) throw new DomainError('unauthorized', 'Invalid API key');
    if (credential.revoked) throw new DomainError('unauthorized', 'This API key has been revoked');
    if (credential.expiresAt && credential.expiresAt.getTime() <= now.getTime()) {
      throw new DomainError('unauthorized', 'This API key has expired');
    }
    return { keyId: credential.keyId, accountId: credential.accountId, scopes: credential.scopes, environment };
  }
}
