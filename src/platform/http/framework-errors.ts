import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../shared/domain-error';
import { domainErrorFromFramework, envelopeOf } from './error-envelope';

/**
 * Errors Fastify's router raises before any hook or filter runs (a malformed percent-encoding,
 * a path parameter over maxParamLength): Fastify would answer them in its own shape, outside the
 * envelope. A parameter that long names no resource, hence 404.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const domain =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new DomainError('not_found', 'No resource has an id that long')
      : (domainErrorFromFramework(error) ??
        new DomainError('missing_required_field', 'Malformed request', { reason: 'malformed_http' }));
  void reply
    .header('X-Request-Id', request.id)
    .status(domain.status)
    .type('application/json; charset=utf-8')
    .send(envelopeOf(domain));
}
