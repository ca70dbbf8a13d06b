import fc from 'fast-check';
import type { FuzzWorld } from './fuzz-world';
import type { Operation, Schema } from './openapi-operations';
import type { RequestPlan } from './request-plan';
import { arbitraryFor, flatten } from './schema-arbitrary';
import type { Exchange } from './response-check';

/**
 * Feedback from the server's own 400s: a valid-by-schema request that breaks a rule the schema
 * cannot state ("custom_endpoint does not apply to an openai trunk", "end_date before start_date")
 * is repaired at the field the error names (`error.param`) and sent again, so that generated
 * requests get past the semantic checks to the deep code. Null when there is nothing to repair.
 */
export function repaired(
  op: Operation,
  plan: RequestPlan,
  exchange: Exchange,
  world: FuzzWorld,
  seed: number,
): RequestPlan | null {
  if (plan.kind !== 'valid' && plan.kind !== 'boundary') return null;
  if (exchange.status !== 400) return null;
  const param = (exchange.body as { error?: { param?: unknown } } | undefined)?.error?.param;
  if (typeof param !== 'string' || param === '') return null;
  const top = param.split(/[.[]/)[0];
  const [path, query = ''] = plan.url.split('?');
  const pairs = new URLSearchParams(query);
  if (pairs.has(top)) {
    pairs.delete(top);
    const rest = pairs.toString();
    return { ...plan, url: rest ? `${path}?${rest}` : path, note: `${plan.note} -${top}` };
  }
  const schema = jsonBodySchema(op);
  if (!schema || typeof plan.body !== 'string' || !plan.headers['content-type']?.startsWith('application/json'))
    return null;
  let body: unknown;
  try {
    body = JSON.parse(plan.body);
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const object = { ...(body as Record<string, unknown>) };
  const property = (schema.properties ?? {})[top] as Schema | undefined;
  if (!property) return null;
  const required = (schema.required ?? []).includes(top);
  if (top in object && !required) delete object[top];
  else [object[top]] = fc.sample(arbitraryFor(property, world.hints, 'valid', top), { seed, numRuns: 1 });
  return { ...plan, body: JSON.stringify(object), note: `${plan.note} ~${top}` };
}

function jsonBodySchema(op: Operation): Schema | null {
  const schema = op.body?.content['application/json'];
  return schema ? flatten(schema) : null;
}
