import { ApiExtension } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { operationsOf } from './openapi.errors';

const EXTENSION = 'x-media-type-schemas';

/**
 * A request body whose content types have different shapes (NDJSON is text, one JSON value a
 * line): @ApiBody gives every @ApiConsumes type one schema, so this names each type's own.
 */
export const ApiMediaTypeSchemas = (schemas: Record<string, SchemaObject>): MethodDecorator =>
  ApiExtension(EXTENSION, schemas);

export function applyMediaTypeSchemas(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const [, operation] of operationsOf(item)) {
      const extended = operation as typeof operation & { [EXTENSION]?: Record<string, SchemaObject> };
      const schemas = extended[EXTENSION];
      if (!schemas) continue;
      delete extended[EXTENSION];
      const body = operation.requestBody;
      if (!body || '$ref' in body) throw new Error(`${EXTENSION} on an operation without a request body`);
      for (const [type, schema] of Object.entries(schemas)) body.content[type] = { ...body.content[type], schema };
    }
  }
}
