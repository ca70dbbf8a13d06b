import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'status'],
      properties: {
        code: { type: 'string', example: 'missing_required_field' },
        message: { type: 'string' },
        status: { type: 'integer' },
        param: { type: 'string', description: 'The request field at fault' },
        request_id: { type: 'string', description: 'On 5xx: the id in the logs' },
        retry_after: { type: 'integer', description: 'On 429: Unix time the window resets' },
      },
    },
  },
};

const STANDARD_ERRORS: Record<string, string> = {
  '400': 'Malformed request (missing_required_field, invalid_params, invalid_sip_username)',
  '401': 'missing_authentication or unauthorized',
  '403': 'forbidden: the key lacks the scope',
  '429': 'rate_limit_exceeded',
  '503': 'service_unavailable: retry after Retry-After',
};

/** Generated from the controllers and DTOs, so the code stays the single source of truth. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Trunkline API')
    .setDescription(
      'SIP trunks between carriers and AI voice agents, their call records and analytics. Errors: {"error": {"code", "message", "status"}}.',
    )
    .setVersion('1')
    .addServer('/')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'sk_live_… or sk_test_… API key' })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, Error: ERROR_SCHEMA as never },
  };
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      for (const [status, description] of Object.entries(STANDARD_ERRORS)) {
        operation.responses[status] ??= {
          description,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        };
      }
    }
  }
  return document;
}
