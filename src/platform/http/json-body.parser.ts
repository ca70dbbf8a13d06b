import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { DomainError } from '../../shared/domain-error';

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Deeper bodies are refused: DTO transformation recurses per level and would exhaust the stack. */
export const MAX_JSON_DEPTH = 32;
/** What PostgreSQL cannot store in text or jsonb (events would fail as if the store were down). */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this refuses
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

type BodyDefect = { kind: 'too_deep' } | { kind: 'unstorable'; param: string };

function defectOf(value: unknown, depthLeft: number, path: string, checkText: boolean): BodyDefect | null {
  if (typeof value === 'string')
    return checkText && UNSTORABLE.test(value) ? { kind: 'unstorable', param: path } : null;
  if (typeof value !== 'object' || value === null) return null;
  if (depthLeft === 0) return { kind: 'too_deep' };
  for (const [key, child] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (checkText && UNSTORABLE.test(key)) return { kind: 'unstorable', param: at };
    const defect = defectOf(child, depthLeft - 1, at, checkText);
    if (defect) return defect;
  }
  return null;
}

/**
 * Where the JSON breaks, without V8's quote of the input ("Unexpected token 'S', "…Secret-1…" is
 * not valid JSON"): the body may hold a secret, and error messages never echo one.
 */
function jsonProblem(error: unknown): string {
  if (!(error instanceof SyntaxError)) return 'forbidden property name';
  const position = /at position (\d+)/.exec(error.message)?.[1];
  if (position) return `syntax error at position ${position}`;
  return /end of JSON input/.test(error.message) ? 'unexpected end of input' : 'unexpected token';
}

export interface BodyOptions {
  defaultBytes: number;
  largeBytes: number;
  isLarge: (path: string) => boolean;
  /** Media types a route takes besides application/json (the ingestion route's NDJSON). */
  alsoAccepts: (path: string) => readonly string[];
}

/** As Fastify judges it: a body is announced by a non-zero Content-Length or a Transfer-Encoding. */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The media type in lower case, without parameters; '' when there is no Content-Type. */
function mediaTypeOf(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/** The charset parameter of the Content-Type, lower case, quotes removed; null when there is none. */
function charsetOf(request: FastifyRequest): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(request.headers['content-type'] ?? '');
  return match ? match[1].toLowerCase() : null;
}

/** Every body is read as UTF-8 (RFC 8259 §8.1); another declared charset would be misread, not converted. */
function unsupportedCharset(charset: string): DomainError {
  const named = /^[a-z0-9._:-]{1,40}$/.test(charset) ? `charset ${charset}` : 'This charset';
  return new DomainError('unsupported_media_type', `${named} is not accepted: send UTF-8 (charset=utf-8 or none)`);
}

const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,64}$/;

function unsupportedMediaType(request: FastifyRequest, accepted: readonly string[]): DomainError {
  const type = mediaTypeOf(request);
  // The type is echoed only when it looks like one: a header is client input.
  const what =
    type === ''
      ? 'A request body needs a Content-Type'
      : MEDIA_TYPE.test(type)
        ? `Content-Type ${type} is not accepted here`
        : 'Unsupported Content-Type';
  return new DomainError('unsupported_media_type', `${what}: send ${accepted.join(' or ')}`);
}

/**
 * JSON bodies: strict UTF-8 (invalid bytes are a 400, not silently replaced), prototype
 * poisoning refused, an empty body treated as absent. A body of any other media type (or of
 * none) is 415 before a byte of it is read, except the types a route also takes; a declared
 * type with an empty body is no body (fetch() labels an empty string text/plain).
 */
export function registerJsonParser(fastify: FastifyInstance, limits: BodyOptions): void {
  const limitOf = (request: FastifyRequest) =>
    limits.isLarge(request.routeOptions.url ?? '') ? limits.largeBytes : limits.defaultBytes;
  const acceptedBy = (request: FastifyRequest) => [
    'application/json',
    ...limits.alsoAccepts(request.routeOptions.url ?? ''),
  ];
  fastify.addHook('preParsing', async (request: FastifyRequest) => {
    if (request.is404 || !hasBody(request)) return;
    const accepted = acceptedBy(request);
    if (!accepted.includes(mediaTypeOf(request))) throw unsupportedMediaType(request, accepted);
    const charset = charsetOf(request);
    if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') throw unsupportedCharset(charset);
    // Refuse an announced oversized body before reading a byte of it.
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > limitOf(request))
      throw new DomainError('payload_too_large', `Request body is larger than ${limitOf(request)} bytes`);
  });
  // Fastify's own text/plain parser would hand a JSON-looking body to validation as a string.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: limits.defaultBytes }, (request, body, done) =>
    (body as Buffer).length === 0 || request.is404
      ? done(null, undefined)
      : done(unsupportedMediaType(request, acceptedBy(request)), undefined),
  );
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: limits.largeBytes },
    (request: FastifyRequest, body: Buffer, done) => {
      if (body.length > limitOf(request))
        return done(
          new DomainError('payload_too_large', `Request body is larger than ${limitOf(request)} bytes`),
          undefined,
        );
      if (body.length === 0) return done(null, undefined);
      let text: string;
      try {
        text = utf8.decode(body);
      } catch {
        return done(
          new DomainError('missing_required_field', 'Request body is not valid UTF-8', { reason: 'invalid_json' }),
          undefined,
        );
      }
      let parsed: unknown;
      try {
        parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
      } catch (error) {
        const detail = jsonProblem(error);
        return done(
          new DomainError('missing_required_field', `Request body is not valid JSON: ${detail}`, {
            reason: 'invalid_json',
          }),
          undefined,
        );
      }
      // Ingestion judges each record on its own and stores text in ClickHouse, which takes any string.
      const defect = defectOf(parsed, MAX_JSON_DEPTH, '', !limits.isLarge(request.routeOptions.url ?? ''));
      if (defect?.kind === 'too_deep')
        return done(
          new DomainError('missing_required_field', `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`, {
            reason: 'invalid_json',
          }),
          undefined,
        );
      if (defect?.kind === 'unstorable') {
        return done(
          new DomainError(
            'missing_required_field',
            `${defect.param} contains a NUL character or an unpaired UTF-16 surrogate`,
            { param: defect.param, reason: 'invalid_character' },
          ),
          undefined,
        );
      }
      done(null, parsed);
    },
  );
}
