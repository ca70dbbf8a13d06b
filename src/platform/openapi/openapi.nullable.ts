import type { OpenAPIObject } from '@nestjs/swagger';

type Node = Record<string, unknown>;

/**
 * OpenAPI 3.0.3 gives `nullable` effect only beside a `type` in the same schema, and an `enum`
 * still has to list null. @nestjs/swagger writes a nullable DTO-typed property as
 * `{nullable: true, allOf: [{$ref}]}`, which strict validators read as "never null", and a
 * nullable enum without null. Both are rewritten to forms that admit null under 3.0.3.
 */
export function admitNullReferences(document: OpenAPIObject): void {
  visit(document.components?.schemas);
  visit(document.paths);
}

/**
 * The null branch admits exactly null (`enum: [null]`, with the `type` that 3.0.3 and redocly
 * require beside `nullable`). Its type is `string`, not `object`: @hey-api/openapi-ts read an
 * `object` branch as an empty object and dropped it from request bodies (`vad?: VadDto` in the
 * update body but `VadDto | null` in responses: issue 29); with `string` both it and
 * openapi-typescript map the anyOf to `T | null` in requests and responses alike.
 */
const NULL_ONLY = { type: 'string', nullable: true, enum: [null] };

function visit(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(visit);
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Node;
  if (schema.nullable === true) admitNull(schema);
  Object.values(schema).forEach(visit);
}

function admitNull(schema: Node): void {
  const single = (schema.allOf ?? schema.oneOf ?? schema.anyOf) as Node[] | undefined;
  // The `type: object` nestjs writes beside the reference only restates it.
  if (single && single.length === 1 && (schema.type === undefined || schema.type === 'object')) {
    delete schema.type;
    delete schema.allOf;
    delete schema.oneOf;
    delete schema.nullable;
    schema.anyOf = [single[0], { ...NULL_ONLY }];
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
}
