import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Logger } from 'pino';
import { AppLogger, isLevelEnabled } from '../platform/logging/logging';
import { CLOCK, Clock } from '../shared/clock';
import { DomainError } from '../shared/domain-error';
import { KEY_USAGE_STORE, KeyUsageStore, RateLimitDecision } from '../rate-limiting/rate-limiter.port';
import { CREDENTIAL_GATE, CredentialGate } from './credentials/credential-gate';
import { retryAfterSeconds } from '../rate-limiting/rate-window';
import { ReadAheadRoutes, serializedBody } from './read-ahead.routes';
import { Authenticator } from './authenticator';
import { assertAllowed, policyFor, policyOfRoute } from './route-policy';

/** What Fastify sends with a serialized object. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Runs before body parsing on every request, matched or not: authenticate, count against the
 * key's (or, without a valid key, the client address's) rate limit, set the rate headers, then
 * check the route's scope. Rejecting here costs no body parsing.
 */
@Injectable()
export class RequestGate {
  private readonly logger: Logger;
  constructor(
    private readonly authenticator: Authenticator,
    @Inject(CREDENTIAL_GATE) private readonly limits: CredentialGate,
    @Inject(KEY_USAGE_STORE) private readonly usage: KeyUsageStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readAheadRoutes: ReadAheadRoutes,
    logging: AppLogger,
  ) {
    this.logger = logging.for('gate');
  }

  /**
   * Callback style: a request the gate answers itself stops the hook chain by not calling `done`.
   * (An async hook would have to return the reply, and awaiting a reply that is not sent yet
   * hangs stream listeners on the response until it finishes: a cost on every answered GET.)
   */
  readonly onRequest = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    this.admit(request, reply).then((answered) => {
      if (!answered) done();
    }, done);
  };

  /** True when the gate has sent the answer itself. */
  private async admit(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    void reply.header('X-Request-Id', request.id);
    const now = this.clock.now();
    // The registered pattern, not the raw path, decides a matched route's policy, so no encoding
    // trick can reach a handler under another area's rules. Unmatched requests reach no handler.
    // (request.routeOptions builds a new object on every read: read once.)
    const route = request.routeOptions.url;
    const policy = route === undefined ? policyFor(request.url.split('?')[0]) : policyOfRoute(route);
    if (policy.kind === 'public') {
      // Health and the API description must answer while Redis is down: limited on a best-effort basis.
      await this.limit(`ip:${request.ip}`, reply, now).catch((error: unknown) => {
        if (error instanceof DomainError && error.code === 'rate_limit_exceeded') throw error;
      });
      return false;
    }
    const planned = this.readAheadRoutes.readAheadFor(
      request.method,
      route,
      request.url,
      request.params,
      request.query,
    );
    const { principal, error, decision, readAhead } = await this.dependency(() =>
      this.authenticator.authenticate(request.headers.authorization, now, `ip:${request.ip}`, planned?.spec),
    );
    this.applyDecision(decision, reply, now);
    if (error || !principal) throw error ?? new DomainError('unauthorized', 'Invalid API key');
    request.principal = principal;
    // A request no route matches answers 404 (or 405) to every valid key: a route that does not
    // exist has no scope, and a 403 would tell an admin key the path exists for someone else.
    if (route !== undefined) assertAllowed(principal, policy.area, request.method);
    if (!planned) return false;
    // A store failure here is the handler's own read failing: the exception filter answers it.
    const answered = await this.readAheadRoutes.answer(planned, readAhead, principal);
    request.readAhead = answered.read;
    if (answered.body === null) return false;
    // Answered here, the handler and its framework pipeline are skipped; onSend and onResponse still run.
    // The body is the same object for every caller of this copy of the record: serialized once.
    void reply.header('content-type', JSON_TYPE).send(serializedBody(answered.body));
    return true;
  }

  readonly onResponse = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    if (isLevelEnabled(request.log, 'info')) {
      request.log.info(
        {
          method: request.method,
          path: request.url.split('?')[0],
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request',
      );
    }
    const principal = request.principal;
    if (principal) {
      this.usage.record(principal.keyId, this.clock.now(), reply.statusCode >= 400).catch((error: unknown) => {
        this.logger.warn({ err: error }, 'could not record key usage');
      });
    }
    done();
  };

  private async limit(bucket: string, reply: FastifyReply, now: Date): Promise<void> {
    this.applyDecision(await this.dependency(() => this.limits.consume(bucket)), reply, now);
  }

  /** The rate headers on every response; past the limit, 429 with retry_after and Retry-After. */
  private applyDecision(decision: RateLimitDecision, reply: FastifyReply, now: Date): void {
    const limit = decision.limit;
    void reply.headers({
      'X-RateLimit-Limit': String(decision.limit),
      'X-RateLimit-Remaining': String(decision.remaining),
      'X-RateLimit-Reset': String(decision.resetAtSeconds),
    });
    if (decision.allowed) return;
    const wait = retryAfterSeconds(decision, now.getTime());
    throw new DomainError(
      'rate_limit_exceeded',
      `Rate limit of ${limit} requests per minute exceeded; retry after ${decision.resetAtSeconds} (Unix time)`,
      {
        retryAt: decision.resetAtSeconds,
        retryAfterSeconds: wait,
      },
    );
  }

  /** A store that fails or times out becomes a fast 503 with Retry-After, never a hang. */
  private async dependency<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.logger.warn(
        { err: { message: (error as Error)?.message } },
        'authentication or rate-limit store unavailable',
      );
      throw new DomainError('service_unavailable', 'A backing service is unavailable; retry shortly', {
        retryAfterSeconds: 1,
      });
    }
  }
}
