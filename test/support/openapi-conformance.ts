import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { basePathOf, Operation, operationsOf, resolveRefs, Schema } from '../fuzz/support/openapi-operations';
import { Exchange, ResponseChecker, toJsonSchema } from '../fuzz/support/response-check';

/**
 * Every response an e2e test receives through the test clients is checked against the OpenAPI
 * document the app under test publishes (startTestApp registers it by origin, straight from the
 * running app): its status is documented for that operation, a 2xx body matches the documented
 * schema under strict OpenAPI 3.0.3 rules, an error body is the envelope. A request no operation
 * matches must be 404 or 405 in the envelope (the document's description says any path may
 * answer those). Each test file fails in its afterAll (openapi-conformance.setup.ts) when one of
 * its responses did not conform. Every webhook delivery the test receivers get is checked the
 * same way against its event's schema under the document's `x-webhooks`.
 */
export interface ObservedExchange extends Exchange {
  method: string;
  /** As requested: `/v1/trunks/conn_…?limit=5`. */
  path: string;
}

interface Route {
  operation: Operation;
  pattern: RegExp;
  /** Fewer parameters win: `/v1/gateway/changes` over a `/v1/gateway/{x}`. */
  params: number;
}

class Conformance {
  private readonly routes: Route[];
  private readonly checker: ResponseChecker;
  private readonly base: string;
  private readonly webhooks: Map<string, ValidateFunction>;
  private readonly ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });

  constructor(document: Schema) {
    addFormats(this.ajv);
    this.webhooks = new Map(
      Object.entries<Schema>(document['x-webhooks'] ?? {}).map(([type, item]) => [
        type,
        this.ajv.compile(
          toJsonSchema(resolveRefs(item.post.requestBody.content['application/json'].schema, document), true),
        ),
      ]),
    );
    this.base = basePathOf(document);
    this.checker = new ResponseChecker(document);
    this.routes = operationsOf(document)
      .map((operation) => ({
        operation,
        pattern: patternOf(operation.path),
        params: operation.pathParams.length,
      }))
      .sort((a, b) => a.params - b.params);
  }

  observe(exchange: ObservedExchange): void {
    const path = exchange.path.split('?')[0];
    if (!path.startsWith(`${this.base}/`) || path === `${this.base}/openapi.json`) return;
    if (exchange.method === 'HEAD' || exchange.method === 'OPTIONS') return;
    const matching = this.routes.filter((route) => route.pattern.test(path));
    const route = matching.find((r) => r.operation.method === exchange.method);
    const problems = route ? this.checkOperation(route.operation, exchange) : this.checkUnrouted(matching, exchange);
    for (const problem of problems) violations.push(`${exchange.method} ${path} → ${exchange.status}: ${problem}`);
  }

  checkWebhook(payload: unknown): string[] {
    const type = String((payload as { type?: unknown } | null)?.type);
    const validate = this.webhooks.get(type);
    if (!validate) return [`type ${type} has no schema under x-webhooks (${[...this.webhooks.keys()].join(', ')})`];
    if (validate(payload)) return [];
    return [
      `${this.ajv.errorsText(validate.errors, { dataVar: 'payload' })} in ${JSON.stringify(payload).slice(0, 300)}`,
    ];
  }

  private checkOperation(operation: Operation, exchange: ObservedExchange): string[] {
    if (!(String(exchange.status) in operation.responses))
      return [`not documented for ${operation.key} (documented: ${Object.keys(operation.responses).join(', ')})`];
    if (exchange.status >= 500) return this.checker.checkError(exchange).map((v) => v.detail);
    return this.checker.check(operation, exchange).map((v) => `${v.kind}: ${v.detail}`);
  }

  private checkUnrouted(matching: Route[], exchange: ObservedExchange): string[] {
    const expected = matching.length > 0 ? [404, 405] : [404];
    if (exchange.status === 429 || exchange.status === 401 || exchange.status === 503)
      return this.checker.checkError(exchange).map((v) => v.detail);
    if (!expected.includes(exchange.status)) return [`no operation matches; expected ${expected.join(' or ')}`];
    return this.checker.checkError(exchange).map((v) => v.detail);
  }
}

/** `/v1/trunks/{id}` → a regex matching `/v1/trunks/conn_…` (and its trailing-slash form). */
function patternOf(template: string): RegExp {
  const segments = template
    .split('/')
    .map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}/?$`);
}

const published = new Map<string, Conformance>();
const violations: string[] = [];

/** The document the app at `origin` (`https://127.0.0.1:port`) serves; its responses are checked from now on. */
export function registerPublishedDocument(origin: string, document: unknown): void {
  published.set(origin, new Conformance(document as Schema));
}

/** Called by the test HTTP clients with every response they receive from `origin`. */
export function observeExchange(origin: string, exchange: ObservedExchange): void {
  published.get(origin)?.observe(exchange);
}

/** Called by the test webhook receivers with every delivery's JSON body (any published document: they are one). */
export function observeWebhookDelivery(payload: unknown): void {
  const conformance = [...published.values()].pop();
  if (!conformance) return;
  for (const problem of conformance.checkWebhook(payload)) violations.push(`webhook delivery: ${problem}`);
}

/** The violations seen since the last call (one test file's, from its afterAll). */
export function takeConformanceViolations(): string[] {
  return violations.splice(0);
}
