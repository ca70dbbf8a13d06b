import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { RateLimitDecision } from '../rate-limiting/rate-limiter.port';
import { ReadAhead, ReadAheadResult } from '../infrastructure/read-model/read-ahead';
import { DomainError } from '../shared/domain-error';
import { AUTH_SETTINGS, AuthSettings } from '../platform/config/auth.settings';
import { environmentOfKey, hashApiKey } from '../shared/api-key';
import { CREDENTIAL_GATE, CredentialGate } from './credentials/credential-gate';
import { KEY_HASHES, KeyHashes } from './credentials/key-hashes';
import { Principal } from '../shared/principal';
import { READ_MODEL_STATUS, type ReadModelStatus } from '../eventsourcing/read-model-status.port';
import { ApiKeyLookup, KeyCredential } from '../api-keys/read/api-key.lookup';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const BASIC = /^Basic[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*$/i;

/**
 * The API key of an Authorization header: `Bearer <key>`, or `Basic` with the key as user name
 * and an empty password (`-u sk_live_…:`), for HTTP clients that can send credentials only that
 * way (Kamailio's http_client connections: docs/sip-gateway.md).
 */
function keyOf(authorization: string): string | null {
  const bearer = BEARER.exec(authorization);
  if (bearer) return bearer[1];
  const basic = BASIC.exec(authorization);
  if (!basic) return null;
  const [user, password] = Buffer.from(basic[1], 'base64').toString('latin1').split(':');
  return password === '' ? user : null;
}
export const ENV_ADMIN_KEY_ID = 'key_admin_env';

export interface Authentication {
  principal: Principal | null;
  /** Why there is no principal (401), thrown by the gate after the rate headers are set. */
  error: DomainError | null;
  decision: RateLimitDecision;
  /** The record the route's handler will read, fetched in the same round trip (Redis, GET routes). */
  readAhead?: ReadAheadResult;
}

/** Who is calling, and the rate-limit decision for the request, counted against the key or the client. */
@Injectable()
export class Authenticator {
  private readonly adminHash: Buffer | null;

  constructor(
    @Inject(AUTH_SETTINGS) private readonly settings: AuthSettings,
    @Inject(CREDENTIAL_GATE) private readonly gate: CredentialGate,
    @Inject(READ_MODEL_STATUS) private readonly readModels: ReadModelStatus,
    private readonly lookup: ApiKeyLookup,
    @Inject(KEY_HASHES) private readonly hashes: KeyHashes,
  ) {
    this.adminHash = settings.adminApiKey ? Buffer.from(hashApiKey(settings.adminApiKey), 'hex') : null;
  }

  /** `ahead`: read along with the credential when the key turns out valid (it is dropped otherwise). */
  async authenticate(
    authorization: string | undefined,
    now: Date,
    clientBucket: string,
    ahead?: ReadAhead,
  ): Promise<Authentication> {
    const refuse = async (error: DomainError): Promise<Authentication> => ({
      principal: null,
      error,
      decision: await this.gate.consume(clientBucket),
    });
    if (authorization === undefined || authorization.trim() === '') {
      return refuse(
        new DomainError(
          'missing_authentication',
          'Missing Authorization header: send "Authorization: Bearer <API key>"',
        ),
      );
    }
    const key = keyOf(authorization);
    if (key === null) return refuse(new DomainError('unauthorized', 'Authorization header must be "Bearer <API key>"'));
    const environment = environmentOfKey(key);
    if (!environment) return refuse(new DomainError('unauthorized', 'Invalid API key'));
    if (environment !== this.settings.appEnv) {
      return refuse(
        new DomainError(
          'unauthorized',
          `This is a ${environment} key; this service runs in the ${this.settings.appEnv} environment`,
        ),
      );
    }
    // Every key is hashed (or its memo read) before any comparison: the admin key is told by its
    // hash, compared in constant time, never by comparing the presented key with it.
    const hash = this.hashes.hashOf(key);
    if (this.adminHash && timingSafeEqual(this.adminHash, Buffer.from(hash, 'hex'))) {
      const { decision, readAhead } = await this.gate.consumeReadingAhead(`key:${ENV_ADMIN_KEY_ID}`, ahead);
      return {
        principal: { keyId: ENV_ADMIN_KEY_ID, accountId: null, scopes: ['admin'], environment },
        error: null,
        decision,
        readAhead,
      };
    }
    const found = await this.gate.lookupAndConsume(hash, clientBucket, ahead);
    const { decision } = found;
    const fail = (message: string): Authentication => ({
      principal: null,
      error: new DomainError('unauthorized', message),
      decision,
    });
    const again = found.credential ? null : await this.lookUpAgain(hash);
    if (again instanceof DomainError) return { principal: null, error: again, decision };
    const credential = found.credential ?? again;
    if (!credential || credential.environment !== environment) return fail('Invalid API key');
    if (credential.revoked) return fail('This API key has been revoked');
    if (credential.expiresAt && credential.expiresAt.getTime() <= now.getTime())
      return fail('This API key has expired');
    // Read ahead only with the credential of the first lookup (a key found again after a restore is rare).
    const readAhead = found.credential ? found.readAhead : undefined;
    if (found.credential) this.hashes.remember(key, hash);
    return {
      principal: { keyId: credential.keyId, accountId: credential.accountId, scopes: credential.scopes, environment },
      error: null,
      decision,
      readAhead,
    };
  }

  /**
   * A key the read model does not hold may be missing only for now: after Redis lost its data,
   * keys come back as the replay from the event store reaches them. While that lasts: 503, not
   * 401, returned like any refusal (not thrown) so that the answer keeps the rate headers of the
   * request the gate counted. Checked after the first lookup, so a replay that finished in between
   * is seen by one more.
   */
  private async lookUpAgain(hash: string): Promise<KeyCredential | DomainError | null> {
    if (await this.readModels.restoring()) {
      return new DomainError('service_unavailable', 'Read models are being restored; retry shortly', {
        retryAfterSeconds: 1,
      });
    }
    return this.lookup.byHash(hash);
  }
}
