/**
 * Field checks shared by the gateway's records (calls and rejections): each throws Invalid with
 * the code and message a rejected record carries, so one bad record is refused on its own.
 */
export type InvalidCode = 'missing_required_field' | 'invalid_field' | 'too_large';

export class Invalid extends Error {
  constructor(
    readonly code: InvalidCode,
    message: string,
  ) {
    super(message);
  }
}

export type Verdict<T> = { ok: true; value: T } | { ok: false; code: InvalidCode; message: string };

/** What `parse` makes of a record, or why it refused it (any other error is a bug, rethrown). */
export function judge<T>(parse: () => T): Verdict<T> {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

/** A record's fields, when it is a JSON object naming only `known` fields. */
export function fieldsOf(input: unknown, known: ReadonlySet<string>, what: string): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new Invalid('invalid_field', `a ${what} must be a JSON object`);
  const raw = input as Record<string, unknown>;
  const unknown = Object.keys(raw).find((k) => !known.has(k));
  if (unknown) throw new Invalid('invalid_field', `unknown field: ${unknown.slice(0, 64)}`);
  return raw;
}

/** ISO 8601 with a zone; fractions of a second are kept to the millisecond. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

export function text(value: unknown, field: string, pattern: RegExp, message: string): string {
  if (value === undefined || value === null) throw new Invalid('missing_required_field', `${field} is required`);
  if (typeof value !== 'string' || !pattern.test(value)) throw new Invalid('invalid_field', message);
  return value;
}

export function optionalText(value: unknown, field: string, pattern: RegExp): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !pattern.test(value))
    throw new Invalid('invalid_field', `${field} must match ${pattern.source}`);
  return value;
}

export function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (value === undefined || value === null) throw new Invalid('missing_required_field', `${field} is required`);
  if (typeof value !== 'string' || !allowed.includes(value as T))
    throw new Invalid('invalid_field', `${field} must be one of ${allowed.join(', ')}`);
  return value as T;
}

export function instant(value: unknown, field: string, required: boolean): Date | null {
  if (value === undefined || value === null) {
    if (required) throw new Invalid('missing_required_field', `${field} is required`);
    return null;
  }
  const ms = typeof value === 'string' && ISO_INSTANT.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new Invalid('invalid_field', `${field} must be an ISO 8601 instant with a time zone`);
  return new Date(ms);
}

export function optionalInt(value: unknown, field: string, min: number, max: number): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new Invalid('invalid_field', `${field} must be an integer from ${min} to ${max}`);
  return value;
}

export function optionalNumber(value: unknown, field: string, min: number, max: number): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
    throw new Invalid('invalid_field', `${field} must be a number from ${min} to ${max}`);
  return value;
}
