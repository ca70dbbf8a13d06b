import fc from 'fast-check';
import { collectionOf, Operation, Parameter, Schema } from './openapi-operations';
import { arbitraryFor, flatten, Mode } from './schema-arbitrary';
import { hostileText, invalidFor, malformedBodies } from './invalid-values';
import type { FuzzWorld, Owner } from './fuzz-world';
import { keyArbitrary } from './fuzz-keys';

export type PlanKind =
  | 'valid'
  | 'boundary'
  | 'invalid-body'
  | 'malformed-body'
  | 'invalid-query'
  | 'invalid-path'
  | 'auth'
  | 'cross-account';

/** One request, fully decided: what is sent and what the fuzzer knows about it. */
export interface RequestPlan {
  kind: PlanKind;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Which key was sent (for the report) and whose resources the key reaches. */
  keyLabel: string;
  owner: Owner;
  /** A path parameter names another account's resource while the key is of this account. */
  crossAccount: boolean;
  note: string;
}

/**
 * encodeURIComponent, except that lone surrogates (which it throws on) go as U+FFFD, and a value
 * that would be a dot segment ("." or "..", encoded or not) gets a letter: every URL parser
 * (WHATWG's, undici's) removes dot segments before sending, so no client can send such an id and
 * the request would name another route.
 */
function encode(text: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    encoded = encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
  return /^(\.|%2e){1,2}$/i.test(encoded) ? `${encoded}x` : encoded;
}

const KINDS = (op: Operation): { arbitrary: fc.Arbitrary<PlanKind>; weight: number }[] => [
  { arbitrary: fc.constant('valid' as const), weight: 35 },
  { arbitrary: fc.constant('boundary' as const), weight: 12 },
  { arbitrary: fc.constant(op.body ? ('invalid-body' as const) : ('valid' as const)), weight: 15 },
  { arbitrary: fc.constant('malformed-body' as const), weight: op.body ? 8 : 2 },
  { arbitrary: fc.constant('invalid-query' as const), weight: 10 },
  { arbitrary: fc.constant(op.pathParams.length ? ('invalid-path' as const) : ('invalid-query' as const)), weight: 8 },
  { arbitrary: fc.constant('auth' as const), weight: 6 },
  { arbitrary: fc.constant(op.pathParams.length ? ('cross-account' as const) : ('valid' as const)), weight: 6 },
];

/** Every request the fuzzer may send to one operation. */
export function planArbitrary(op: Operation, world: FuzzWorld): fc.Arbitrary<RequestPlan> {
  return fc.oneof(...KINDS(op)).chain((kind) => {
    const mode: Mode = kind === 'boundary' ? 'boundary' : 'valid';
    return fc
      .record({
        path: pathArbitrary(op, world, kind),
        query: queryArbitrary(op, world, kind, mode),
        body: bodyArbitrary(op, world, kind, mode),
        key: keyArbitrary(op, world, kind),
      })
      .map(({ path, query, body, key }) => ({
        kind,
        method: op.method,
        url: `${path.path}${query}`,
        headers: { ...key.headers, ...(body.contentType ? { 'content-type': body.contentType } : {}) },
        body: body.raw,
        keyLabel: key.label,
        owner: key.owner,
        crossAccount: path.owners.some((o) => o !== null && o !== key.owner),
        note: body.note,
      }));
  });
}

function pathArbitrary(
  op: Operation,
  world: FuzzWorld,
  kind: PlanKind,
): fc.Arbitrary<{ path: string; owners: (Owner | null)[] }> {
  if (op.pathParams.length === 0) return fc.constant({ path: op.path, owners: [] });
  const values = op.pathParams.map((param) => paramValue(op, param, world, kind));
  return fc.tuple(...values).map((picked) => {
    let path = op.path;
    op.pathParams.forEach((param, i) => (path = path.replace(`{${param.name}}`, picked[i].value)));
    return { path, owners: picked.map((p) => p.owner) };
  });
}

/** A path value and whose resource it names (null: no real resource). */
function paramValue(
  op: Operation,
  param: Parameter,
  world: FuzzWorld,
  kind: PlanKind,
): fc.Arbitrary<{ value: string; owner: Owner | null }> {
  const pool = param.name === 'sip_username' ? 'sip_username' : collectionOf(op.path, param.name);
  const fromPool = (owner: Owner) => fc.nat().map((n) => world.pick(pool, owner, n));
  if (kind === 'invalid-path') {
    return fc
      .oneof(
        hostileText.map((t) => encode(t)),
        fc.constantFrom('..', '%2e%2e', 'a%2Fb', '%00', '%zz', '%'),
        fc.constant(null).map(() => world.deletedIds()[0] ?? 'conn_deleted'),
      )
      .map((value) => ({ value: value || 'x', owner: null }));
  }
  if (kind === 'cross-account')
    return fromPool('other').map((id) => ({
      value: encode(id ?? 'conn_none'),
      owner: id === null ? null : ('other' as Owner),
    }));
  return fc
    .oneof(
      { arbitrary: fromPool('own').map((id) => ({ id, owner: id === null ? null : ('own' as Owner) })), weight: 9 },
      { arbitrary: fc.string({ minLength: 1, maxLength: 30 }).map((id) => ({ id, owner: null })), weight: 1 },
    )
    .map(({ id, owner }) => ({ value: encode(id ?? `${pool.split('/').pop()}_missing`), owner }));
}

function queryArbitrary(op: Operation, world: FuzzWorld, kind: PlanKind, mode: Mode): fc.Arbitrary<string> {
  const pairs = op.queryParams.map((param) =>
    fc.option(
      arbitraryFor(param.schema, world.hints, mode, param.name).map((v) => [param.name, String(v)] as [string, string]),
      { freq: param.required ? 0 : 2, nil: null },
    ),
  );
  const valid = fc.tuple(...pairs).map((list) => list.filter((p): p is [string, string] => p !== null));
  const toQuery = (list: [string, string][]) =>
    list.length ? `?${list.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}` : '';
  if (kind !== 'invalid-query') return valid.map(toQuery);
  const names = op.queryParams.map((p) => p.name);
  const broken = fc.oneof(
    ...(names.length
      ? [fc.tuple(fc.constantFrom(...names), hostileText).map(([name, value]) => [[name, value]] as [string, string][])]
      : []),
    ...(names.length
      ? [
          fc.tuple(fc.constantFrom(...names), fc.constantFrom('', '-1', '0', 'x')).map(
            ([name, value]) =>
              [
                [name, value],
                [name, value],
              ] as [string, string][],
          ),
        ]
      : []),
    fc.constant([['unknown_param', '1']] as [string, string][]),
    fc.constant([['__proto__[x]', '1']] as [string, string][]),
  );
  return fc
    .tuple(valid, broken, fc.boolean())
    .map(([good, bad, raw]) =>
      raw && bad.length === 1 && bad[0][1] === '' ? `?${bad[0][0]}` : toQuery([...good, ...bad]),
    );
}

type BodyPlan = { raw?: string | Buffer; contentType?: string; note: string };

function bodyArbitrary(op: Operation, world: FuzzWorld, kind: PlanKind, mode: Mode): fc.Arbitrary<BodyPlan> {
  if (kind === 'malformed-body')
    return malformedBodies.map((m) => ({ raw: m.raw, contentType: m.contentType ?? undefined, note: m.label }));
  if (!op.body) return fc.constant({ note: '' });
  // JSON mostly; every other published content type (NDJSON for ingestion) too.
  const types = Object.keys(op.body.content);
  const json = types.includes('application/json') ? 'application/json' : (types[0] ?? 'application/json');
  const others = types.filter((t) => t !== json);
  const contentTypes = others.length
    ? fc.oneof({ arbitrary: fc.constant(json), weight: 3 }, { arbitrary: fc.constantFrom(...others), weight: 1 })
    : fc.constant(json);
  return contentTypes.chain((contentType) => {
    const schema = op.body!.content[contentType] ?? op.body!.content[json] ?? null;
    const flat = flatten(schema ?? {});
    const value = schema ? arbitraryFor(flat, world.hints, mode) : fc.jsonValue({ maxDepth: 2 });
    const serialise = (v: unknown) =>
      contentType === 'application/x-ndjson' && Array.isArray(v)
        ? v.map((r) => JSON.stringify(r)).join('\n')
        : JSON.stringify(v);
    if (kind !== 'invalid-body') return value.map((v) => ({ raw: serialise(v), contentType, note: mode }));
    return value.chain((v) => mutate(v, flat)).map(({ v, note }) => ({ raw: serialise(v), contentType, note }));
  });
}

/** One defect in an otherwise valid body: a field dropped, mistyped or unknown, or the whole body wrong. */
function mutate(value: unknown, schema: Schema): fc.Arbitrary<{ v: unknown; note: string }> {
  const object =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  const properties = Object.keys(schema.properties ?? {});
  const whole = invalidFor(schema).map((v) => ({ v, note: 'wrong body type' }));
  if (!object || properties.length === 0) return whole;
  const required: string[] = schema.required ?? [];
  return fc.oneof(
    whole,
    ...(required.length
      ? [fc.constantFrom(...required).map((name) => ({ v: omit(object, name), note: `missing ${name}` }))]
      : []),
    fc
      .constantFrom(...properties)
      .chain((name) =>
        invalidFor(schema.properties[name]).map((bad) => ({ v: { ...object, [name]: bad }, note: `invalid ${name}` })),
      ),
    fc
      .constantFrom('unknown_field', 'id', 'account_id', 'created_at', 'isAdmin')
      .map((name) => ({ v: { ...object, [name]: 'x' }, note: `extra ${name}` })),
  );
}

function omit(object: Record<string, unknown>, name: string): Record<string, unknown> {
  const { [name]: _dropped, ...rest } = object;
  return rest;
}
