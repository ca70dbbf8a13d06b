/**
 * Domain errors carry a stable code from the spec's error table; one global filter maps them to
 * the error envelope. Nothing below the HTTP layer throws HTTP exceptions.
 */
export type ErrorCode =
  | 'missing_required_field'
  | 'invalid_sip_username'
  | 'invalid_params'
  | 'unauthorized'
  | 'missing_authentication'
  | 'invalid_provider_credentials'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'idempotency_key_in_use'
  | 'precondition_failed'
  | 'gone'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'idempotency_key_reused'
  | 'header_fields_too_large'
  | 'rate_limit_exceeded'
  | 'internal_error'
  | 'service_unavailable'
  | 'provider_unavailable';

export const STATUS_OF: Record<ErrorCode, number> = {
  missing_required_field: 400,
  invalid_sip_username: 400,
  invalid_params: 400,
  unauthorized: 401,
  missing_authentication: 401,
  invalid_provider_credentials: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_key_in_use: 409,
  precondition_failed: 412,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  header_fields_too_large: 431,
  rate_limit_exceeded: 429,
  internal_error: 500,
  service_unavailable: 503,
  provider_unavailable: 503,
};

/**
 * What exactly is wrong with a refused request, beside the spec's `code` (which stays the one
 * decisions.md requires, e.g. missing_required_field for every body problem): additive, so a
 * client can branch on it. Documented in docs/api-notes.md and the OpenAPI error schema.
 */
export const ERROR_REASONS = [
  'invalid_json',
  'invalid_type',
  'unknown_field',
  'not_in_enum',
  'too_long',
  'too_short',
  'out_of_range',
  'invalid_format',
  'missing',
  'invalid_header',
  'invalid_character',
  'body_not_allowed',
  'conflicting_params',
  'invalid_cursor',
  'not_applicable',
  'unknown_reference',
  'no_records',
  'malformed_http',
  'https_required',
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

/** retryAfterSeconds: how long to wait (Retry-After); retryAt: the Unix second it ends (429 body). */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { param?: string; reason?: ErrorReason; retryAfterSeconds?: number; retryAt?: number } = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get status(): number {
    return STATUS_OF[this.code];
  }
}

/** A malformed field of a request body, named in `error.param`. */
export function invalidField(param: string, message: string, reason: ErrorReason = 'invalid_format'): DomainError {
  return new DomainError('missing_required_field', message, { param, reason });
}

export function notFound(what: string): DomainError {
  return new DomainError('not_found', `${what} not found`);
}
