import Ajv from 'ajv';
import { toJsonSchema } from '../../fuzz/support/response-check';
import {
  observeExchange,
  observeWebhookDelivery,
  registerPublishedDocument,
  takeConformanceViolations,
} from '../../support/openapi-conformance';

/**
 * The e2e suite checks every response against the OpenAPI document under OpenAPI 3.0.3's own
 * reading of `nullable`; these pin that reading, so a lenient validator cannot hide the defects
 * issue 18 found (null in an enum that does not list it, `nullable` beside `allOf`).
 */
describe('response validation as strict as OpenAPI 3.0.3', () => {
  const ajv = new Ajv({ strict: false });
  const VAD = { type: 'object', properties: { threshold: { type: 'number' } } };
  const accepts = (schema: Record<string, unknown>, value: unknown) => ajv.compile(toJsonSchema(schema, true))(value);

  it('admits null beside a type marked nullable, and not without the mark', () => {
    expect(accepts({ type: 'string', nullable: true }, null)).toBe(true);
    expect(accepts({ type: 'string' }, null)).toBe(false);
  });

  it('refuses null for a nullable enum that does not list null, and admits it when it does', () => {
    expect(accepts({ type: 'string', nullable: true, enum: ['exhausted'] }, null)).toBe(false);
    expect(accepts({ type: 'string', nullable: true, enum: ['exhausted', null] }, null)).toBe(true);
  });

  it('refuses null for nullable beside allOf [$ref], and admits it in the anyOf form the document uses', () => {
    expect(accepts({ nullable: true, type: 'object', allOf: [VAD] }, null)).toBe(false);
    const anyOf = { anyOf: [VAD, { type: 'string', nullable: true, enum: [null] }] };
    expect(accepts(anyOf, null)).toBe(true);
    expect(accepts(anyOf, { threshold: 0.5 })).toBe(true);
    expect(accepts(anyOf, { threshold: 0.5, leaked: 'x' })).toBe(false);
  });

  it('refuses a fraction where the document says integer', () => {
    expect(accepts({ type: 'integer' }, 12.5)).toBe(false);
  });
});

describe('the e2e conformance check', () => {
  const document = {
    servers: [{ url: '/v1' }],
    paths: {
      '/trunks/{id}': {
        get: {
          responses: {
            '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Trunk' } } } },
            '404': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
          },
        },
      },
    },
    components: {
      schemas: {
        Trunk: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message', 'status'],
              properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
            },
          },
        },
      },
    },
  };
  const json = { 'content-type': 'application/json' };
  const exchange = (method: string, path: string, status: number, body: unknown) => ({
    method,
    path,
    status,
    headers: json,
    body,
    text: JSON.stringify(body),
  });
  const notFound = { error: { code: 'not_found', message: 'x', status: 404 } };

  it('flags an undocumented status, a body off its schema and a matched method that should not exist', () => {
    registerPublishedDocument('https://app.test', document);
    observeExchange('https://app.test', exchange('GET', '/v1/trunks/conn_1', 200, { id: 'conn_1' }));
    observeExchange('https://app.test', exchange('GET', '/v1/trunks/conn_1?x=1', 404, notFound));
    observeExchange('https://app.test', exchange('GET', '/v1/nowhere', 404, notFound));
    expect(takeConformanceViolations()).toEqual([]);
    observeExchange('https://app.test', exchange('GET', '/v1/trunks/conn_1', 409, notFound));
    observeExchange('https://app.test', exchange('GET', '/v1/trunks/conn_1', 200, { id: 1 }));
    observeExchange('https://app.test', exchange('DELETE', '/v1/trunks/conn_1', 204, undefined));
    expect(takeConformanceViolations()).toEqual([
      expect.stringContaining('GET /v1/trunks/conn_1 → 409: not documented for GET /v1/trunks/{id}'),
      expect.stringContaining('GET /v1/trunks/conn_1 → 200: schema'),
      expect.stringContaining('DELETE /v1/trunks/conn_1 → 204: no operation matches; expected 404 or 405'),
    ]);
  });

  it('checks webhook deliveries against the published x-webhooks schemas', async () => {
    const { buildDocumentOffline } = await import('../../../scripts/openapi/offline-document');
    registerPublishedDocument('https://app.test', await buildDocumentOffline());
    const ping = {
      id: 'evt_1',
      type: 'ping',
      created_at: '2026-11-21T10:00:00.000Z',
      data: { endpoint_id: 'we_1', message: 'A test event from Trunkline' },
    };
    observeWebhookDelivery(ping);
    expect(takeConformanceViolations()).toEqual([]);
    observeWebhookDelivery({ ...ping, data: { ...ping.data, secret: 'x' } });
    observeWebhookDelivery({ ...ping, type: 'call.completed', data: { calls: [{ id: 'call_1' }] } });
    observeWebhookDelivery({ ...ping, type: 'trunk.renamed' });
    expect(takeConformanceViolations()).toEqual([
      expect.stringContaining('must NOT have additional properties'),
      expect.stringContaining("must have required property 'trunk_id'"),
      expect.stringContaining('type trunk.renamed has no schema under x-webhooks'),
    ]);
  });
});
