import type { OpenAPIObject } from '@nestjs/swagger';
import type { HeaderObject, ParameterObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { operationsOf } from './openapi.errors';

const HEADERS: Record<string, HeaderObject> = {
  'X-Request-Id': {
    description: "The request's id, also in the logs (echoes a sane X-Request-Id the client sent)",
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': { description: 'Requests allowed per minute for this key', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) the window resets', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  'Idempotent-Replayed': {
    description: 'true when this is the stored response of an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
};

const EVERY_RESPONSE = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

const IDEMPOTENCY_KEY: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first 2xx response to this key is stored for 24 hours (per account) and ' +
    'answered again, with Idempotent-Replayed: true, to a request with the same key, path and body. ' +
    'Another body or path with the key is 422 idempotency_key_reused. 1-255 printable ASCII characters.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

const ref = (kind: 'headers' | 'parameters', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Response headers (every response's, 429/503's Retry-After, replays') and Idempotency-Key on every POST. */
export function describeHeaders(document: OpenAPIObject): void {
  document.components = {
    ...document.components,
    headers: { ...document.components?.headers, ...HEADERS },
    parameters: { ...document.components?.parameters, IdempotencyKey: IDEMPOTENCY_KEY },
  };
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of operationsOf(item)) {
      if (method === 'post')
        operation.parameters = [...(operation.parameters ?? []), ref('parameters', 'IdempotencyKey')];
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!response || '$ref' in response) continue;
        const names = [...EVERY_RESPONSE];
        if (status === '429' || status === '503') names.push('Retry-After');
        if (method === 'post' && status.startsWith('2')) names.push('Idempotent-Replayed');
        response.headers = { ...response.headers, ...Object.fromEntries(names.map((n) => [n, ref('headers', n)])) };
      }
    }
  }
}
