import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Operation, Schema } from './openapi-operations';

export interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: unknown;
}

/** A response that breaks the contract: a 5xx, an error outside the envelope, a 2xx off its schema. */
export interface Violation {
  kind: '5xx' | 'envelope' | 'schema' | 'undocumented-status' | 'cross-account' | 'secret-echo';
  detail: string;
}

/**
 * OpenAPI 3.0.3 schema → JSON Schema for ajv, as strict as 3.0.3 reads: `nullable: true` adds
 * null to the `type` beside it (and does nothing without one), and an `enum` admits null only
 * when it lists it. Objects that list their properties allow no others (a response field the
 * description does not name is a defect of one or the other: an undocumented field, or worse, a
 * leaked one).
 */
export function toJsonSchema(schema: Schema, closeObjects: boolean): Schema {
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s, closeObjects)) as unknown as Schema;
  if (typeof schema !== 'object' || schema === null) return schema;
  // example, writeOnly and readOnly are OpenAPI annotations JSON Schema validation must not see.
  const { nullable, example: _example, writeOnly: _writeOnly, readOnly: _readOnly, ...rest } = schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === 'properties')
      out.properties = Object.fromEntries(
        Object.entries(value as Schema).map(([k, v]) => [k, toJsonSchema(v as Schema, closeObjects)]),
      );
    else if (
      ['items', 'allOf', 'anyOf', 'oneOf', 'not', 'additionalProperties'].includes(key) &&
      typeof value === 'object'
    )
      out[key] = toJsonSchema(value as Schema, closeObjects);
    else out[key] = value;
  }
  if (closeObjects && out.properties && out.additionalProperties === undefined && !out.allOf)
    out.additionalProperties = false;
  if (nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

export class ResponseChecker {
  private readonly ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly envelope: ValidateFunction;

  constructor(document: Schema) {
    addFormats(this.ajv);
    const error = document.components?.schemas?.Error;
    if (!error) throw new Error('the OpenAPI document publishes no Error schema');
    this.envelope = this.ajv.compile(toJsonSchema(error, false));
  }

  check(op: Operation, exchange: Exchange): Violation[] {
    const { status } = exchange;
    if (status >= 500) return [{ kind: '5xx', detail: `${status} ${exchange.text.slice(0, 300)}` }];
    if (!(String(status) in op.responses))
      return [
        {
          kind: 'undocumented-status',
          detail: `${status} is not among the documented responses ${Object.keys(op.responses).join(', ')}`,
        },
      ];
    if (status < 200 || status >= 300) return this.checkError(exchange);
    const schema = op.responses[String(status)];
    if (schema === null) {
      return exchange.text === ''
        ? []
        : [
            {
              kind: 'schema',
              detail: `${status} has a body but the description publishes no schema for it: ${exchange.text.slice(0, 200)}`,
            },
          ];
    }
    const validate = this.validatorFor(`${op.key} ${status}`, schema);
    const json = String(exchange.headers['content-type'] ?? '').startsWith('application/json');
    if (validate(json ? exchange.body : exchange.text)) return [];
    return [
      {
        kind: 'schema',
        detail: `${this.ajv.errorsText(validate.errors, { dataVar: 'body' })} in ${exchange.text.slice(0, 300)}`,
      },
    ];
  }

  /** An error response: the envelope, with error.status equal to the HTTP status. */
  checkError(exchange: Exchange): Violation[] {
    const type = String(exchange.headers['content-type'] ?? '');
    if (!type.startsWith('application/json'))
      return [
        { kind: 'envelope', detail: `${exchange.status} with content-type ${type}: ${exchange.text.slice(0, 200)}` },
      ];
    if (!this.envelope(exchange.body))
      return [
        {
          kind: 'envelope',
          detail: `${exchange.status} ${this.ajv.errorsText(this.envelope.errors)}: ${exchange.text.slice(0, 200)}`,
        },
      ];
    const error = (exchange.body as { error: { status: number; code: string; message: string } }).error;
    if (error.status !== exchange.status || !error.code || !error.message) {
      return [
        {
          kind: 'envelope',
          detail: `${exchange.status} but error.status ${error.status}, code "${error.code}": ${exchange.text.slice(0, 200)}`,
        },
      ];
    }
    return [];
  }

  private validatorFor(key: string, schema: Schema): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(schema, true));
      this.validators.set(key, validate);
    }
    return validate;
  }
}
