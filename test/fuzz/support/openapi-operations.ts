/** The operations of a published OpenAPI 3 document, with every $ref resolved. */

export type Schema = Record<string, any>;

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  /** `GET /v1/trunks/{id}` */
  key: string;
  method: string;
  path: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** Content type → schema of the request body (null when the operation takes none). */
  body: { required: boolean; content: Record<string, Schema | null> } | null;
  /** Status → schema of the JSON body, or of a text body as a string (null: no body, e.g. 204). */
  responses: Record<string, Schema | null>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Inlines every `#/components/...` reference; the DTO graph has no cycles, depth guards anyway. */
export function resolveRefs(node: unknown, document: Schema, depth = 0): any {
  if (depth > 40) throw new Error('schema nesting too deep (cyclic $ref?)');
  if (Array.isArray(node)) return node.map((item) => resolveRefs(item, document, depth + 1));
  if (typeof node !== 'object' || node === null) return node;
  const object = node as Schema;
  if (typeof object.$ref === 'string') {
    const target = object.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((at: any, part: string) => at?.[part], document);
    if (target === undefined) throw new Error(`unresolvable $ref ${object.$ref}`);
    return resolveRefs(target, document, depth + 1);
  }
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, resolveRefs(v, document, depth + 1)]));
}

/** The path the document's paths are relative to: its first server's (`/v1`). */
export function basePathOf(document: Schema): string {
  return new URL(document.servers?.[0]?.url ?? '/', 'https://base.invalid').pathname.replace(/\/$/, '');
}

/** Every operation, its path as served (the server's base path in front: `/v1/trunks`). */
export function operationsOf(document: Schema): Operation[] {
  const operations: Operation[] = [];
  const base = basePathOf(document);
  for (const [relative, item] of Object.entries<Schema>(document.paths ?? {})) {
    const path = `${base}${relative}`;
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params: Parameter[] = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Schema) =>
        resolveRefs(p, document),
      );
      const requestBody = op.requestBody ? resolveRefs(op.requestBody, document) : null;
      const responses: Record<string, Schema | null> = {};
      for (const [status, response] of Object.entries<Schema>(op.responses ?? {})) {
        const resolved = resolveRefs(response, document);
        const json = resolved.content?.['application/json']?.schema;
        // A text response (the audit export's NDJSON or CSV) documents a string schema per type; the
        // call stream's text/event-stream, a string or (documentation) the event it carries.
        const isText = (schema: Schema | undefined) =>
          schema?.type === 'string' || (schema?.anyOf ?? []).some((s: Schema) => s.type === 'string');
        const text = Object.values<Schema>(resolved.content ?? {}).find((media) => isText(media.schema));
        responses[status] = json ?? text?.schema ?? null;
      }
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams: params
          .filter((p) => p.in === 'path')
          .map((p) => ({ ...p, required: true, schema: p.schema ?? { type: 'string' } })),
        queryParams: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ ...p, required: Boolean(p.required), schema: p.schema ?? { type: 'string' } })),
        body: requestBody
          ? {
              required: Boolean(requestBody.required),
              content: Object.fromEntries(
                Object.entries<Schema>(requestBody.content ?? {}).map(([type, media]) => [type, media.schema ?? null]),
              ),
            }
          : null,
        responses,
      });
    }
  }
  return operations;
}

/** The collection a path parameter names a member of: `/v1/trunks/{id}/events` → `/v1/trunks`. */
export function collectionOf(path: string, param: string): string {
  const at = path.indexOf(`/{${param}}`);
  return at < 0 ? path : path.slice(0, at);
}
