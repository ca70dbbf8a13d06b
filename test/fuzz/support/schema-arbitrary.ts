import fc from 'fast-check';
import type { Schema } from './openapi-operations';

/**
 * A value generator for a named field, or null to fall back on its schema. Hints carry what a
 * schema cannot say (a sip_username must be unique, an account_id must exist) so that valid
 * requests get past the semantic checks and reach the deep code.
 */
export type Hints = (name: string, schema: Schema) => fc.Arbitrary<unknown> | null;

export type Mode = 'valid' | 'boundary';

const MAX_GENERATED_LENGTH = 48;

/** allOf flattened into one schema (nullable and type kept from the outer one). */
export function flatten(schema: Schema): Schema {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...outer } = schema;
  return (allOf as Schema[]).reduce<Schema>((merged, part) => {
    const flat = flatten(part);
    return {
      ...flat,
      ...merged,
      properties: { ...flat.properties, ...merged.properties },
      required: [...(flat.required ?? []), ...(merged.required ?? [])],
    };
  }, outer);
}

export function typeOf(schema: Schema): string | undefined {
  const flat = flatten(schema);
  if (flat.enum) return 'enum';
  if (flat.type) return flat.type as string;
  if (flat.properties) return 'object';
  return undefined;
}

/** Values the schema allows; `boundary` prefers the edges (min and max lengths, limits, empty arrays). */
export function arbitraryFor(schema: Schema, hints: Hints, mode: Mode, name = ''): fc.Arbitrary<unknown> {
  const flat = flatten(schema);
  const hinted = name ? hints(name, flat) : null;
  const base = hinted
    ? fc.oneof(
        { arbitrary: hinted, weight: mode === 'valid' ? 9 : 2 },
        { arbitrary: bySchema(flat, hints, mode), weight: 1 },
      )
    : bySchema(flat, hints, mode);
  return flat.nullable ? fc.oneof({ arbitrary: base, weight: 9 }, { arbitrary: fc.constant(null), weight: 1 }) : base;
}

function bySchema(schema: Schema, hints: Hints, mode: Mode): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf))
    return fc.oneof(...((schema.oneOf ?? schema.anyOf) as Schema[]).map((s) => arbitraryFor(s, hints, mode)));
  switch (typeOf(schema)) {
    case 'string':
      return stringFor(schema, mode);
    case 'integer':
    case 'number':
      return numberFor(schema, mode);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return arrayFor(schema, hints, mode);
    case 'object':
      return objectFor(schema, hints, mode);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringFor(schema: Schema, mode: Mode): fc.Arbitrary<string> {
  if (schema.format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (schema.format === 'uri') return fc.webUrl({ validSchemes: ['https', 'wss'] });
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? min + MAX_GENERATED_LENGTH;
  if (mode === 'boundary') {
    return fc
      .oneof(fc.constant(min), fc.constant(max))
      .chain((length) =>
        fc.string({ minLength: length, maxLength: length, unit: fc.constantFrom('a', 'Z', '9', ' ', 'é', '字', '🙂') }),
      );
  }
  return fc.string({
    minLength: min,
    maxLength: Math.min(max, min + MAX_GENERATED_LENGTH),
    unit: fc.oneof(
      { arbitrary: fc.constantFrom(...'abcXYZ019 -_.'), weight: 8 },
      { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), weight: 2 },
    ),
  });
}

function numberFor(schema: Schema, mode: Mode): fc.Arbitrary<number> {
  const min =
    schema.minimum ?? (schema.exclusiveMinimum !== undefined ? Number(schema.exclusiveMinimum) + 1 : -1_000_000);
  const max =
    schema.maximum ?? (schema.exclusiveMaximum !== undefined ? Number(schema.exclusiveMaximum) - 1 : 1_000_000);
  if (mode === 'boundary') return fc.constantFrom(min, max);
  const integers = fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  if (schema.type === 'integer') return integers;
  return fc.oneof(
    { arbitrary: integers, weight: 4 },
    { arbitrary: fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), weight: 1 },
  );
}

function arrayFor(schema: Schema, hints: Hints, mode: Mode): fc.Arbitrary<unknown[]> {
  const items = arbitraryFor(schema.items ?? {}, hints, mode);
  const minLength = schema.minItems ?? 0;
  const maxLength = Math.min(schema.maxItems ?? minLength + 4, minLength + 4);
  if (mode === 'boundary')
    return fc.oneof(
      fc.array(items, { minLength, maxLength: minLength }),
      fc.array(items, { minLength: maxLength, maxLength }),
    );
  return fc.array(items, { minLength, maxLength });
}

function objectFor(schema: Schema, hints: Hints, mode: Mode): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set<string>(schema.required ?? []);
  const arbitraries = Object.fromEntries(
    Object.entries(properties)
      .filter(([, s]) => !s.readOnly)
      .map(([name, s]) => [name, arbitraryFor(s, hints, mode, name)]),
  );
  return fc.record(arbitraries, { requiredKeys: Object.keys(arbitraries).filter((name) => required.has(name)) });
}
