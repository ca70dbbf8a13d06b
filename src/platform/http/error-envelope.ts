import { DomainError, ErrorCode, ErrorReason, STATUS_OF } from '../../shared/domain-error';

export interface ErrorEnvelope {
  error: {
    code: string;
    message: string;
    status: number;
    param?: string;
    reason?: ErrorReason;
    request_id?: string;
    retry_after?: number;
  };
}

export function envelope(
  code: ErrorCode,
  message: string,
  extra: Omit<ErrorEnvelope['error'], 'code' | 'message' | 'status'> = {},
): ErrorEnvelope {
  return { error: { code, message, status: STATUS_OF[code], ...extra } };
}

export function envelopeOf(error: DomainError, requestId?: string): ErrorEnvelope {
  const extra: Omit<ErrorEnvelope['error'], 'code' | 'message' | 'status'> = {};
  if (error.details.param !== undefined) extra.param = error.details.param;
  if (error.details.reason !== undefined) extra.reason = error.details.reason;
  if (error.details.retryAt !== undefined) extra.retry_after = error.details.retryAt;
  if (error.status >= 500 && requestId) extra.request_id = requestId;
  return envelope(error.code, error.message, extra);
}

/** Fastify's own errors (parsers, limits) carry a statusCode and an FST_ code. */
const FASTIFY_CODES: Record<string, [ErrorCode, string, ErrorReason?]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'Request body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Unsupported Content-Type: send application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [
    'missing_required_field',
    'Content-Length does not match the body',
    'malformed_http',
  ],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['missing_required_field', 'Request body is empty: send a JSON object', 'invalid_json'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['missing_required_field', 'Request body is not valid JSON', 'invalid_json'],
  FST_ERR_BAD_URL: ['missing_required_field', 'Malformed URL', 'malformed_http'],
  FST_ERR_ASYNC_CONSTRAINT: ['missing_required_field', 'Malformed request', 'malformed_http'],
};

export function domainErrorFromFramework(error: {
  code?: string;
  statusCode?: number;
  message?: string;
}): DomainError | null {
  const known = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (known) return new DomainError(known[0], known[1], known[2] ? { reason: known[2] } : {});
  const status = error.statusCode;
  if (status === 413) return new DomainError('payload_too_large', 'Request body is too large');
  if (status === 415)
    return new DomainError('unsupported_media_type', 'Unsupported Content-Type: send application/json');
  if (status === 431) return new DomainError('header_fields_too_large', 'Request headers are too large');
  if (status !== undefined && status >= 400 && status < 500) {
    return new DomainError('missing_required_field', 'Malformed request', { reason: 'malformed_http' });
  }
  return null;
}
