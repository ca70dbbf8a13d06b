import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../shared/domain-error';
import { envelopeOf } from './error-envelope';

/** The read models' restore state as the hooks use it (ReadModels): a mark taken from memory, a check on misses. */
export interface RestoringState<Mark> {
  restoreMark(): Mark;
  restoringSince(mark: Mark): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The read models' restore generation when the request started (restoringHooks). */
    restoreMark: unknown;
  }
}

/**
 * While the read models are being restored (Redis lost its data and the replay from the event
 * store has not caught up), "not found" may only mean "not replayed yet": a matched route's 404
 * becomes 503 with Retry-After, so a client never takes an existing trunk for a deleted one.
 * Each request notes the restore generation when it starts (from memory, before anything is
 * read), and its 404 is a 503 when a restore was under way then, began or ended before the
 * answer, or is under way now: a replay that completes between the read and the send cannot turn
 * a "not replayed yet" into a "deleted". Fastify hooks, not a Nest interceptor: every other answer
 * passes with one status comparison, where a global interceptor costs every request an rxjs
 * pipeline and an async-context binding. The mark is taken by the function returned, which the
 * first onRequest hook calls before anything else (app.factory.ts: one hook less per request).
 */
export function registerRestoringHooks<Mark>(
  fastify: FastifyInstance,
  state: RestoringState<Mark>,
): (request: FastifyRequest) => void {
  fastify.decorateRequest('restoreMark', null);
  const onNotFound = restoringOnSend(state);
  // Callback style, so that every answer but a 404 passes without a promise and a microtask hop.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode !== 404) return done(null, payload);
    onNotFound(request, reply, payload).then((answer) => done(null, answer), done);
  });
  return (request) => {
    request.restoreMark = state.restoreMark();
  };
}

/** The onSend half of registerRestoringHooks (a request without a mark is judged from now). */
export function restoringOnSend<Mark>(state: RestoringState<Mark>) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    // Unmatched routes (no routeOptions.url) stay 404: no replay will ever make them exist.
    if (reply.statusCode !== 404 || request.routeOptions.url === undefined) return payload;
    const mark = (request.restoreMark as Mark | null) ?? state.restoreMark();
    if (!(await state.restoringSince(mark).catch(() => false))) return payload;
    const error = new DomainError('service_unavailable', 'Read models are being restored; retry shortly', {
      retryAfterSeconds: 1,
    });
    void reply.status(error.status).header('Retry-After', '1');
    return JSON.stringify(envelopeOf(error, String(request.id)));
  };
}
