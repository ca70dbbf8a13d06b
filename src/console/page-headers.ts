import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../shared/domain-error';
import { chooseEncoding, StaticFile } from './static-files';

/**
 * The console: scripts, styles, images and API calls from this origin only, nothing inline (no
 * 'unsafe-inline', no 'unsafe-eval'), no plugins, no framing, no form posts elsewhere. Styles set
 * through the CSSOM (element.style) are not inline styles, so Preact and uPlot work under it.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/**
 * The API reference: the same, except that Swagger UI writes a few `style` attributes into its
 * markup (its SVG icons), which only 'unsafe-inline' for styles admits; scripts stay strict.
 */
export const DOCS_CSP = CONSOLE_CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

/** Hashed file names change with their content: cached for a year, never revalidated. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The entry pages name the current hashed files: always revalidated (a 304 costs one round trip). */
export const REVALIDATE = 'no-cache';

export interface PageOptions {
  csp: string;
  cacheControl: string;
}

/** Sends a static file with its security and cache headers, honouring If-None-Match and Accept-Encoding. */
export function sendStatic(
  request: FastifyRequest,
  reply: FastifyReply,
  file: StaticFile | null,
  options: PageOptions,
): FastifyReply {
  if (!file) throw new DomainError('not_found', 'No such file');
  void reply.headers({
    'Content-Security-Policy': options.csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': options.cacheControl,
    ETag: file.etag,
    Vary: 'Accept-Encoding',
  });
  if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
  const encoding = chooseEncoding(file, request.headers['accept-encoding']);
  if (encoding !== 'identity') void reply.header('Content-Encoding', encoding);
  return reply.type(file.type).send(file.bodies[encoding]);
}
