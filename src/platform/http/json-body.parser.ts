import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { DomainError } from '../../shared/domain-error';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON bodies: strict UTF-8 (invalid bytes are a 400, not silently replaced), prototype
 * poisoning refused, an empty body treated as absent.
 */
export function registerJsonParser(fastify: FastifyInstance, limits: { defaultBytes: number; largeBytes: number; isLarge: (path: string) => boolean }): void {
  // Refuse an announced oversized body before reading a byte of it.
  fastify.addHook('preParsing', async (request: FastifyRequest) => {
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > limitOf(request)) throw new DomainError('payload_too_large', `Request body is larger than ${limitOf(request)} bytes`);
  });
  const limitOf = (request: FastifyRequest) => (limits.isLarge(request.routeOptions.url ?? '') ? limits.largeBytes : limits.defaultBytes);
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: limits.largeBytes }, (request: FastifyRequest, body: Buffer, done) => {
    if (body.length > limitOf(request)) return done(new DomainError('payload_too_large', `Request body is larger than ${limitOf(request)} bytes`), undefined);
    if (body.length === 0) return done(null, undefined);
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      return done(new DomainError('missing_required_field', 'Request body is not valid UTF-8'), undefined);
    }
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      const detail = error instanceof SyntaxError ? error.message : 'forbidden property name';
      done(new DomainError('missing_required_field', `Request body is not valid JSON: ${detail}`), undefined);
    }
  });
}
