import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AppLogger } from '../logging/logging';
import { ClickHouseUnavailableError } from '../../infrastructure/clickhouse/clickhouse.port';
import { EventStoreUnavailableError } from '../../infrastructure/event-store/event-store.port';
import { SecretDestroyedError } from '../../infrastructure/secrets/secret.errors';
import { ReadModelUnavailableError } from '../../infrastructure/read-model/read-model-store.port';
import { DomainError } from '../../shared/domain-error';
import { domainErrorFromFramework, envelopeOf } from './error-envelope';
import { RouteTable } from './route-table';

/** The one place where anything thrown becomes the spec's error envelope. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger: Logger;
  constructor(
    @Inject(RouteTable) private readonly routes: RouteTable,
    logging: AppLogger,
  ) {
    this.logger = logging.for('http');
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const request = ctx.getRequest<FastifyRequest>();
    const reply = ctx.getResponse<FastifyReply>();
    if (reply.sent) return;
    const error = this.toDomainError(exception, request, reply);
    if (error.status >= 500) {
      this.logger.error({ err: exception, request_id: request.id }, 'unhandled error');
    }
    if (error.details.retryAfterSeconds !== undefined) {
      reply.header('Retry-After', String(Math.max(1, Math.ceil(error.details.retryAfterSeconds))));
    }
    void reply
      .status(error.status)
      .type('application/json; charset=utf-8')
      .send(envelopeOf(error, String(request.id)));
  }

  private toDomainError(exception: unknown, request: FastifyRequest, reply: FastifyReply): DomainError {
    if (exception instanceof DomainError) return exception;
    // A store that is down or timed out: retryable, never a 500.
    if (
      exception instanceof EventStoreUnavailableError ||
      exception instanceof ClickHouseUnavailableError ||
      exception instanceof ReadModelUnavailableError
    ) {
      return new DomainError('service_unavailable', 'A backing store is unavailable; retry shortly', {
        retryAfterSeconds: 1,
      });
    }
    // A data key is destroyed only when its owner (trunk, webhook endpoint) is deleted: a command
    // that raced the deletion between its existence check and its encryption meets a gone resource.
    if (exception instanceof SecretDestroyedError)
      return new DomainError('not_found', `${exception.ownerId} not found (deleted)`);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) return this.notFoundOrWrongMethod(request, reply);
      return (
        domainErrorFromFramework({ statusCode: status }) ?? new DomainError('internal_error', 'Internal server error')
      );
    }
    const framework = domainErrorFromFramework(exception as { code?: string; statusCode?: number });
    return framework ?? new DomainError('internal_error', 'Internal server error');
  }

  private notFoundOrWrongMethod(request: FastifyRequest, reply: FastifyReply): DomainError {
    const allowed = this.routes.allowedMethods(request.url);
    if (allowed.length === 0)
      return new DomainError('not_found', `No route ${request.method} ${request.url.split('?')[0]}`);
    reply.header('Allow', allowed.join(', '));
    return new DomainError(
      'method_not_allowed',
      `${request.method} is not allowed here; allowed: ${allowed.join(', ')}`,
    );
  }
}
