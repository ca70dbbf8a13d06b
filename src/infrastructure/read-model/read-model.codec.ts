import type { WriteOp } from './read-model-store.port';

/** True only for values of V: the run-time check behind a read model's static type. */
export type Guard<V> = (value: unknown) => value is V;

/** A guard that can also say where a value fails it, for the error that refuses a record. */
export interface Shape<V> {
  (value: unknown): value is V;
  /** The path of the first refused part (`.vad`, `.history[2].attempt`), '' for the value itself; null if none. */
  refused(value: unknown): string | null;
}

/**
 * One guard per field of T, optional fields included: a field added to a view does not compile
 * until its codec checks it.
 */
export type Fields<T> = { readonly [K in keyof Required<T>]: Guard<T[K]> };

export const isString = (value: unknown): value is string => typeof value === 'string';
export const isNumber = (value: unknown): value is number => typeof value === 'number';
export const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

export const oneOf =
  <const V extends string>(values: readonly V[]): Guard<V> =>
  (value): value is V =>
    values.some((v) => v === value);

export const nullable =
  <V>(guard: Guard<V>): Guard<V | null> =>
  (value): value is V | null =>
    value === null || guard(value);

/** For an optional field: JSON leaves out an undefined one. */
export const optional =
  <V>(guard: Guard<V>): Guard<V | undefined> =>
  (value): value is V | undefined =>
    value === undefined || guard(value);

export function arrayOf<V>(item: Guard<V>): Shape<V[]> {
  return shape((value) => {
    if (!Array.isArray(value)) return '';
    const i = value.findIndex((v) => !item(v));
    return i < 0 ? null : `[${i}]${where(item, value[i])}`;
  });
}

/** Extra fields pass: a record written by a newer version still reads. */
export function objectOf<T>(fields: Fields<T>): Shape<T> {
  return shape((value) => {
    if (!isRecord(value)) return '';
    for (const key in fields) if (!fields[key](value[key])) return `.${key}${where(fields[key], value[key])}`;
    return null;
  });
}

/** A read model's record type and its JSON text in the store. */
export interface ReadModelCodec<T> {
  /** Names the record in errors ("trunk view"). */
  readonly name: string;
  encode(view: T): string;
  /** null for a missing record; throws CorruptReadModelError for one that is not a T. */
  decode(raw: string | null): T | null;
  /** The records of a page, leaving out the missing ones (removed after the index was read). */
  decodeAll(raws: readonly (string | null)[]): T[];
  /** The write that stores `view` at `key`. */
  set(key: string, view: T): WriteOp;
}

/** A stored record is not what its codec reads: a bug in a writer, or a store changed by hand. */
export class CorruptReadModelError extends Error {
  constructor(
    readonly record: string,
    readonly problem: string,
  ) {
    super(`corrupt ${record} in the read model: ${problem}`);
    this.name = 'CorruptReadModelError';
  }
}

/** The message names the refused field, never its value: a gateway record holds a password digest. */
export function jsonCodec<T>(name: string, guard: Guard<T> | Shape<T>): ReadModelCodec<T> {
  const parse = (raw: string): T => {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new CorruptReadModelError(name, `not JSON (${(error as Error).message})`);
    }
    if (guard(value)) return value;
    const path = where(guard, value);
    throw new CorruptReadModelError(name, path ? `field ${path.replace(/^\./, '')} is invalid` : 'not of its shape');
  };
  return {
    name,
    encode: (view) => JSON.stringify(view),
    decode: (raw) => (raw === null ? null : parse(raw)),
    decodeAll: (raws) => raws.flatMap((raw) => (raw === null ? [] : [parse(raw)])),
    set: (key, view) => ({ op: 'set', key, value: JSON.stringify(view) }),
  };
}

function shape<V>(refused: (value: unknown) => string | null): Shape<V> {
  const guard = (value: unknown): value is V => refused(value) === null;
  return Object.assign(guard, { refused });
}

/** Where a refused value fails its guard, as far as the guard can tell. */
function where(guard: Guard<unknown> | Shape<unknown>, value: unknown): string {
  return 'refused' in guard ? (guard.refused(value) ?? '') : '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
