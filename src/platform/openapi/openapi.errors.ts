import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  OperationObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ERROR_REASONS } from '../../shared/domain-error';

export const ERROR_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'status'],
      properties: {
        code: { type: 'string', example: 'missing_required_field' },
        message: { type: 'string' },
        status: { type: 'integer' },
        param: { type: 'string', description: 'The request field at fault' },
        reason: {
          type: 'string',
          enum: [...ERROR_REASONS],
          description:
            'What exactly is wrong, beside `code` (which stays the one the spec requires, e.g. ' +
            'missing_required_field for every body problem): additive, for clients to branch on. ' +
            'New reasons may be added; treat an unknown one like its absence (docs/api-notes.md).',
        },
        request_id: { type: 'string', description: 'On 5xx: the id in the logs' },
        retry_after: { type: 'integer', description: 'On 429: Unix time the window resets' },
      },
    },
  },
};

/** Which operations can answer each status, and with which codes. */
interface ErrorRule {
  description: string;
  applies(method: string, path: string): boolean;
}

const always = () => true;
const hasPathParameter = (_method: string, path: string) => path.includes('{');
const isWrite = (method: string) => ['post', 'put', 'patch', 'delete'].includes(method);

const ERROR_RULES: Record<string, ErrorRule> = {
  '400': {
    description:
      'missing_required_field (a malformed body or header; `param` names the field; also plain HTTP), ' +
      'invalid_params (a bad query or path parameter) or invalid_sip_username',
    applies: always,
  },
  '401': {
    description:
      'missing_authentication, unauthorized (unknown, revoked, expired or other-environment key), ' +
      'or invalid_provider_credentials',
    applies: always,
  },
  '403': { description: 'forbidden: the key lacks the scope', applies: always },
  '404': { description: 'not_found: no such resource in this account', applies: hasPathParameter },
  '409': {
    description:
      'conflict (a name or sip_username in use, or too many concurrent changes: retry), or ' +
      'idempotency_key_in_use (a request with this Idempotency-Key is still running: retry); ' +
      'on the agent lookup: the trunk is inactive, so its agent may not be reached',
    applies: (method, path) => isWrite(method) || path.endsWith('/agent'),
  },
  // Any request may carry a body, so any operation can refuse one it cannot read.
  '413': { description: 'payload_too_large: the request body is over the limit', applies: always },
  '415': {
    description:
      'unsupported_media_type: a request body of a type this operation does not read (JSON; NDJSON too for ingestion)',
    applies: always,
  },
  '422': {
    description: 'idempotency_key_reused: this Idempotency-Key was used with another request body or path',
    applies: (method) => method === 'post',
  },
  '429': { description: 'rate_limit_exceeded: wait until X-RateLimit-Reset (also Retry-After)', applies: always },
  '500': {
    description: 'internal_error: an unexpected failure; the body carries a request_id that is also in the log',
    applies: always,
  },
  '503': {
    description: 'service_unavailable or provider_unavailable: retry after Retry-After',
    applies: always,
  },
};

const ERROR_RESPONSE_REF = '#/components/schemas/Error';

/**
 * Adds the error responses each operation can give, in the envelope, unless it lists its own; an
 * error a controller declares itself (a 404 for an id in the body) gets the envelope too.
 */
export function describeErrors(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of operationsOf(item)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) >= 400 && response && !('$ref' in response) && !response.content)
          response.content = { 'application/json': { schema: { $ref: ERROR_RESPONSE_REF } } };
      }
      for (const [status, rule] of Object.entries(ERROR_RULES)) {
        if (!rule.applies(method, path)) continue;
        operation.responses[status] ??= {
          description: rule.description,
          content: { 'application/json': { schema: { $ref: ERROR_RESPONSE_REF } } },
        } satisfies ResponseObject;
      }
    }
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export function operationsOf(item: OpenAPIObject['paths'][string]): Array<[string, OperationObject]> {
  return METHODS.flatMap((method) => (item[method] ? [[method, item[method]] as [string, OperationObject]] : []));
}
