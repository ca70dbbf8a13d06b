import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { EventMetadata } from '../../infrastructure/event-store/event-store.port';
import type { ReadAheadResult } from '../../infrastructure/read-model/read-ahead';
import { DomainError } from '../../shared/domain-error';
import { Principal } from '../../shared/principal';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    /** What the gate read ahead for the handler (src/access/request-gate.ts). */
    readAhead?: ReadAheadResult;
  }
}

export interface RequestContext {
  principal: Principal;
  requestId: string;
  /** The client's address (the proxy's X-Forwarded-For with TLS_MODE=proxy), for the audit log. */
  sourceAddress?: string;
  /** The read model the gate read along with the credential, when the route names one. */
  readAhead?: ReadAheadResult;
}

/** Who acted and under which request: recorded on every event the request causes. */
export const eventMetadata = (ctx: RequestContext): EventMetadata => ({
  actor: ctx.principal.keyId,
  correlation_id: ctx.requestId,
  ...(ctx.sourceAddress ? { source_address: ctx.sourceAddress } : {}),
});

/** The account the calling key belongs to; the gate guarantees one on account routes. */
export function accountOf(ctx: Pick<RequestContext, 'principal'>): string {
  if (!ctx.principal.accountId) throw new DomainError('forbidden', 'This key is not bound to an account');
  return ctx.principal.accountId;
}

/**
 * The account a gateway route acts for: the key's own, or null for a gateway key, which serves
 * every account (the trunk named by the request decides). Any other key without an account is refused.
 */
export function gatewayScopeOf(ctx: Pick<RequestContext, 'principal'>): string | null {
  if (ctx.principal.accountId === null && ctx.principal.scopes.includes('gateway')) return null;
  return accountOf(ctx);
}

export const Ctx = createParamDecorator((_: unknown, execution: ExecutionContext): RequestContext => {
  const request = execution.switchToHttp().getRequest<FastifyRequest>();
  if (!request.principal) throw new DomainError('missing_authentication', 'Missing Authorization header');
  return {
    principal: request.principal,
    requestId: String(request.id),
    sourceAddress: request.ip,
    readAhead: request.readAhead,
  };
});
