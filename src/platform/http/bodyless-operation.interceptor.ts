import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';
import { DomainError } from '../../shared/domain-error';

/**
 * An operation that takes no body (rotate-password, a DELETE) refuses one, as every other
 * operation refuses a field it does not know: a client that sends `{"x": 1}` there has a
 * mistake to learn about. `{}` is taken as no body (many clients send it by default).
 */
@Injectable()
export class BodylessOperationInterceptor implements NestInterceptor {
  private readonly takesBody = new WeakMap<object, boolean>();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const body = context.switchToHttp().getRequest<FastifyRequest>().body;
    if (body !== undefined && !isEmptyObject(body) && !this.readsBody(context)) {
      const field = body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body)[0] : null;
      throw field !== null
        ? new DomainError('missing_required_field', `This operation takes no request body: unknown field ${field}`, {
            param: field,
            reason: 'unknown_field',
          })
        : new DomainError('missing_required_field', 'This operation takes no request body', {
            reason: 'body_not_allowed',
          });
    }
    return next.handle();
  }

  /** Whether the handler reads the body (@Body) or the whole request (@Req), from Nest's own metadata. */
  private readsBody(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let known = this.takesBody.get(handler);
    if (known === undefined) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ?? {}) as object;
      const types = Object.keys(args).map((key) => Number(key.split(':')[0]));
      known = types.includes(RouteParamtypes.BODY) || types.includes(RouteParamtypes.REQUEST);
      this.takesBody.set(handler, known);
    }
    return known;
  }
}

const isEmptyObject = (body: unknown): boolean =>
  body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0;
