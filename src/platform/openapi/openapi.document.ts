import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { describeErrors, ERROR_SCHEMA } from './openapi.errors';
import { describeHeaders } from './openapi.headers';
import { applyMediaTypeSchemas } from './openapi.media-types';
import { admitNullReferences } from './openapi.nullable';
import { describeWebhooks } from './openapi.webhooks';
import { describeTags } from './openapi.tags';

/** The contract's base URL ends in /v1; every documented path is relative to it. */
export const API_BASE_PATH = '/v1';

const DESCRIPTION = [
  'SIP trunks between carriers and AI voice agents, their call records and analytics.',
  '',
  'Every error is `{"error": {"code", "message", "status"}}` (plus `param` naming a bad field).',
  'Besides the responses listed per operation, any path answers `404 not_found` when no route',
  'matches, `405 method_not_allowed` for a method the path does not have, and',
  '`431 header_fields_too_large` for request headers over 16 KiB.',
  'Every response carries `X-Request-Id` and the `X-RateLimit-*` headers.',
  'Every POST accepts an `Idempotency-Key` header: a retry with the same key and body within 24 hours',
  'gets the first response again, with `Idempotent-Replayed: true`.',
].join('\n');

/** Generated from the controllers and DTOs, so the code stays the single source of truth. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Trunkline API')
    .setDescription(DESCRIPTION)
    .setVersion('1')
    .addServer(API_BASE_PATH, 'This service (the base URL ends in /v1)')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'API key',
      description: 'An API key: sk_live_ or sk_test_ followed by 32 letters and digits',
    })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  // No public URL or mailbox is invented here: the operator of an instance is the contact.
  document.info.license = { name: 'Proprietary' };
  document.info.contact = { name: 'The operator of this Trunkline instance' };
  document.paths = relativeTo(API_BASE_PATH, document.paths);
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, Error: ERROR_SCHEMA },
  };
  applyMediaTypeSchemas(document);
  describeErrors(document);
  describeHeaders(document);
  admitNullReferences(document);
  describeWebhooks(document);
  describeTags(document);
  return document;
}

/** Routes outside the base path (health, the console's pages) are not part of the API. */
function relativeTo(base: string, paths: OpenAPIObject['paths']): OpenAPIObject['paths'] {
  return Object.fromEntries(
    Object.entries(paths)
      .filter(([path]) => path.startsWith(`${base}/`))
      .map(([path, item]) => [path.slice(base.length), item]),
  );
}
