import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../shared/domain-error';
import { envelopeOf } from './error-envelope';

export interface RestoringState {
  restoring(): Promise<boolean>;
}

/**
 * While the read models are being restored (Redis lost its data and the replay from the event
 * store has not caught up), "not found" may only mean "not replayed yet": a matched route's 404
 * becomes 503 with Retry-After, so a client never takes an existing trunk for a deleted one.
 * An onSend hook, not a Nest interceptor: every other answer passes with one status comparison,
 * where a global interceptor costs every request an rxjs pipeline and an async-context binding.
 */
export function restoringOnSend(state: RestoringState) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    // Unmatched routes (no routeOptions.url) stay 404: no replay will ever make them exist.
    if (reply.statusCode !== 404 || request.routeOptions.url === undefined) return payload;
    if (!(await state.restoring().catch(() => false))) return payload;
    const error = new DomainError('service_unavailable', 'Read models are being restored; retry shortly', {
      retryAfterSeconds: 1,
    });
    void reply.status(error.status).header('Retry-After', '1');
    return JSON.stringify(envelopeOf(error, String(request.id)));
  };
}
