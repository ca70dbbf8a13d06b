import type { OpenAPIObject } from '@nestjs/swagger';

type Node = Record<string, unknown>;
const SUFFIX = 'WebhookEvent';

const header = (name: string, description: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
});
const SIGNATURE_HEADERS = [
  header('webhook-id', 'The event id (the payload id); the same on every retry'),
  header('webhook-timestamp', 'Unix seconds of this attempt; refuse it when far from now'),
  header('webhook-signature', 'v1,<base64 HMAC-SHA256 of "id.timestamp.body"> (docs/webhooks.md)'),
];

/**
 * Lists every webhook event's payload under `x-webhooks` (Redocly's extension for OpenAPI 3.0;
 * 3.1's `webhooks` would need the whole document on 3.1), each a POST whose body is the named
 * component schema `<Name>WebhookEvent` a feature registered (src/webhooks/read/webhook-event.dto.ts).
 * The schemas themselves live in components.schemas, which is what generators turn into types
 * whether or not an operation refers to them, so typed payloads need no 3.1 support.
 */
export function describeWebhooks(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Node>;
  const webhooks: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    if (!name.endsWith(SUFFIX)) continue;
    const properties = (schema.properties ?? {}) as Record<string, Node>;
    const type = (properties.type?.enum as string[] | undefined)?.[0];
    if (!type) continue;
    const description = (properties.data?.description as string | undefined) ?? type;
    webhooks[type] = {
      post: {
        operationId: `receive${name.slice(0, -SUFFIX.length)}Webhook`,
        summary: `${type} event`,
        description: `${description}. Sent to endpoints subscribed to ${type}, signed as Standard Webhooks (docs/webhooks.md).`,
        tags: ['webhooks'],
        // Not a bearer key: the receiver verifies the Standard Webhooks signature headers.
        security: [],
        parameters: SIGNATURE_HEADERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
        },
        responses: { '200': { description: 'Any 2xx acknowledges the event; anything else is retried' } },
      },
    };
  }
  if (Object.keys(webhooks).length > 0)
    (document as OpenAPIObject & { 'x-webhooks': unknown })['x-webhooks'] = webhooks;
}
