import fc from 'fast-check';
import type { Schema } from './openapi-operations';
import { flatten, typeOf } from './schema-arbitrary';

/** Strings that have broken parsers, validators and loggers elsewhere. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  '🙂'.repeat(50),
  'e\u0301',
  '\u202eevil',
  '\u200b',
  '\ufeff',
  'Ω≈ç√∫',
  '../../etc/passwd',
  '%00',
  '%2F',
  '${jndi:ldap://x}',
  "'; DROP TABLE events; --",
  '<script>alert(1)</script>',
  '{{7*7}}',
  '\r\nX-Injected: 1',
  'null',
  'undefined',
  'NaN',
  'true',
  '0',
  '-1',
  '1e309',
  '0x10',
  '__proto__',
  'constructor',
  'conn_',
  'call_',
  'acct_',
  'key_',
];

/** Numbers at and past every limit a JSON number can reach. */
export const EXTREME_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  2 ** 31,
  -(2 ** 31),
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e308,
  -1e308,
  5e-324,
  1.7976931348623157e308,
];

const huge = (size: number) =>
  fc.constantFrom('x', '字', '🙂').map((unit) => unit.repeat(Math.ceil(size / Buffer.byteLength(unit))));

/** A value the schema does not allow (wrong type, past a limit, outside an enum, malformed). */
export function invalidFor(schema: Schema): fc.Arbitrary<unknown> {
  const flat = flatten(schema);
  const type = typeOf(flat);
  const wrongType = fc.constantFrom<unknown>(
    42,
    -1,
    1.5,
    true,
    false,
    [],
    ['a'],
    {},
    { nested: { deep: 1 } },
    'text',
    ...(flat.nullable ? [] : [null]),
  );
  const specific: fc.Arbitrary<unknown>[] = [];
  if (type === 'enum')
    specific.push(
      fc.constantFrom('', 'ACTIVE', `${flat.enum[0]} `, 'unknown-value', String(flat.enum[0]).toUpperCase()),
    );
  if (type === 'string') {
    if (flat.maxLength !== undefined) specific.push(fc.constant('y'.repeat(flat.maxLength + 1)));
    if (flat.minLength) specific.push(fc.constant('y'.repeat(flat.minLength - 1)));
    if (flat.pattern || flat.format) specific.push(fc.constantFrom(...NASTY_STRINGS));
    specific.push(huge(70_000), fc.constantFrom(...NASTY_STRINGS));
  }
  if (type === 'number' || type === 'integer') {
    specific.push(fc.constantFrom(...EXTREME_NUMBERS), fc.constantFrom('1', '1e3', ''));
    if (flat.minimum !== undefined) specific.push(fc.constant(flat.minimum - 1), fc.constant(flat.minimum - 0.001));
    if (flat.maximum !== undefined) specific.push(fc.constant(flat.maximum + 1), fc.constant(flat.maximum + 0.001));
  }
  if (type === 'array')
    specific.push(
      fc.constant(Array.from({ length: 1000 }, () => 'x')),
      fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
      fc.constant('not-an-array'),
    );
  if (type === 'object') specific.push(fc.jsonValue({ maxDepth: 3 }), fc.constant({ unknown_field: 1 }));
  return specific.length ? fc.oneof(wrongType, ...specific) : wrongType;
}

/** A query-string or path value (already text) that should be refused or at least survived. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.constantFrom(
    '-1',
    '0',
    '101',
    '1.5',
    '1e2',
    ' 5',
    '5 ',
    '+5',
    '007',
    '99999999999999999999',
    'abc',
    '[object Object]',
  ),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer({ min: 300, max: 3000 }).map((n) => 'z'.repeat(n)),
);

/** Bodies no client should send but every server meets. */
export const malformedBodies: fc.Arbitrary<{ raw: string | Buffer; contentType: string | null; label: string }> =
  fc.oneof(
    fc
      .constantFrom(
        '{',
        '{"a":',
        '{"a":1,}',
        "{'a':1}",
        '{"a":1}{"b":2}',
        'nul',
        '[1,2',
        '"\\u12"',
        '{"a":"\\ud800"}',
        '{"a":1e99999}',
        '\u0000',
      )
      .map((raw) => ({ raw, contentType: 'application/json', label: 'malformed JSON' })),
    fc
      .constantFrom('[]', '"text"', '42', 'null', 'true', '[{"a":1}]')
      .map((raw) => ({ raw, contentType: 'application/json', label: 'JSON that is not an object' })),
    fc.constant({
      raw: `${'['.repeat(5000)}${']'.repeat(5000)}`,
      contentType: 'application/json',
      label: 'deep nesting',
    }),
    fc.constant({
      raw: `{"a":${'{"a":'.repeat(3000)}1${'}'.repeat(3001)}`,
      contentType: 'application/json',
      label: 'deep nesting',
    }),
    fc.constant({
      raw: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
      contentType: 'application/json',
      label: 'invalid UTF-8',
    }),
    fc.constant({
      raw: '{"__proto__":{"polluted":true}}',
      contentType: 'application/json',
      label: 'prototype poisoning',
    }),
    fc.constant({
      raw: '{"constructor":{"prototype":{"polluted":true}}}',
      contentType: 'application/json',
      label: 'prototype poisoning',
    }),
    fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/json-patch+json',
        'application/json; charset=latin1',
        'garbage',
        '*/*',
      )
      .map((contentType) => ({ raw: 'a=1&b=2', contentType, label: 'wrong content type' })),
    fc.constant({ raw: '{"name":"x"}', contentType: null, label: 'no content type' }),
    fc.constant({ raw: '', contentType: 'application/json', label: 'empty body' }),
    fc
      .integer({ min: 1_100_000, max: 1_300_000 })
      .map((n) => ({ raw: `{"name":"${'x'.repeat(n)}"}`, contentType: 'application/json', label: 'oversized body' })),
  );
