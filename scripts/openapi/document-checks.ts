import type { OpenAPIObject } from '@nestjs/swagger';

type Node = Record<string, unknown>;

/** Counts and durations: a generator for Go, Java or Python must see `integer`, not `number`. */
const INTEGER_NAME = /(_ms|_seconds|_count|^count|^total|^limit|^offset|^index|^accepted|^calls|^attempts?|^revision)$/;
/** Averages and rates the contract types as number. */
const NUMBER_NAMES = new Set(['avg_duration_seconds', 'avg_billable_seconds']);

/**
 * What redocly does not check but strict validators and client generators trip on: bare objects
 * (generated as Record<string, never>), `nullable` with no `type` beside it (ignored by 3.0.3),
 * nullable enums without null, integers typed number, POSTs without Idempotency-Key, framework
 * default operationIds (TrunksWriteController_create) where a client wants createTrunk.
 */
export function documentDefects(document: OpenAPIObject): string[] {
  const defects: string[] = [];
  walk(document.components?.schemas, '#/components/schemas', defects);
  walk(document.paths, '#/paths', defects);
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const id = (operation as { operationId?: string }).operationId ?? '';
      if (typeof operation === 'object' && !/^[a-z][A-Za-z]+$/.test(id))
        defects.push(`${method.toUpperCase()} ${path}: operationId "${id}" is not a client method name (createTrunk)`);
    }
    const post = item.post;
    if (!post) continue;
    const names = (post.parameters ?? []).map((p) => ('$ref' in p ? p.$ref : p.name));
    if (!names.some((n) => /IdempotencyKey$|^Idempotency-Key$/.test(n)))
      defects.push(`POST ${path}: no Idempotency-Key parameter`);
  }
  return defects;
}

function walk(node: unknown, at: string, defects: string[]): void {
  if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}/${i}`, defects));
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Node;
  checkSchema(schema, at, defects);
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'example' || key === 'examples' || key === 'enum') continue;
    walk(value, `${at}/${key}`, defects);
  }
}

function checkSchema(schema: Node, at: string, defects: string[]): void {
  const composed = schema.allOf ?? schema.anyOf ?? schema.oneOf;
  if (schema.type === 'object' && !schema.properties && schema.additionalProperties === undefined && !composed) {
    if (!Array.isArray(schema.enum))
      defects.push(`${at}: bare object (say additionalProperties or reference a schema)`);
  }
  if (schema.nullable === true && schema.type === undefined)
    defects.push(`${at}: nullable without a type beside it is ignored by OpenAPI 3.0.3`);
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null))
    defects.push(`${at}: nullable enum without null`);
  const properties = (schema.properties ?? {}) as Record<string, Node>;
  for (const [name, property] of Object.entries(properties)) {
    const typed = property.type === 'array' ? (property.items as Node | undefined) : property;
    if (typed?.type === 'number' && INTEGER_NAME.test(name) && !NUMBER_NAMES.has(name))
      defects.push(`${at}/properties/${name}: a count or duration typed number, not integer`);
  }
}
