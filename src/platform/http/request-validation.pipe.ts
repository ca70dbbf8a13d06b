import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate, ValidationError } from 'class-validator';
import { DomainError, ErrorCode, ErrorReason } from '../../shared/domain-error';

/**
 * Validates bodies and query strings against their DTO classes. A bad body field is
 * `400 missing_required_field` naming the field (decisions.md), a bad query parameter
 * `400 invalid_params`. Unknown fields are refused, not silently dropped: a typo in a
 * provisioning script should fail loudly.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param' && typeof value === 'string' && UNSTORABLE_ID.test(value)) {
      throw new DomainError('not_found', 'No resource has an id with a NUL character or an unpaired surrogate');
    }
    const type = metadata.metatype;
    if (!type || !isDtoClass(type) || (metadata.type !== 'body' && metadata.type !== 'query')) return value;
    const code = metadata.type === 'body' ? 'missing_required_field' : 'invalid_params';
    if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new DomainError(
        code,
        metadata.type === 'body' ? 'Request body must be a JSON object' : 'Invalid query string',
        { reason: value === undefined || value === null ? 'missing' : 'invalid_type' },
      );
    }
    if (metadata.type === 'query') {
      rejectRepeatedParameters(value as Record<string, unknown>);
      rejectCursorWithOffset(value as Record<string, unknown>);
    }
    const instance = plainToInstance(type, value, {
      enableImplicitConversion: false,
      exposeDefaultValues: true,
    }) as object;
    const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
    if (errors.length > 0) {
      const { param, message, code: specific, reason } = describe(errors[0]);
      throw new DomainError(specific ?? code, message, { param, reason });
    }
    return instance;
  }
}

/** Path ids become event-stream names; PostgreSQL cannot store these, and no id contains them. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this refuses
const UNSTORABLE_ID = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function isDtoClass(type: unknown): type is new () => object {
  return typeof type === 'function' && ![String, Boolean, Number, Array, Object].includes(type as never);
}

function rejectRepeatedParameters(query: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value))
      throw new DomainError('invalid_params', `Query parameter ${name} is given more than once`, {
        param: name,
        reason: 'conflicting_params',
      });
  }
}

/** A cursor says where to continue; an offset beside it would be silently ignored. */
function rejectCursorWithOffset(query: Record<string, unknown>): void {
  if (query.cursor !== undefined && query.offset !== undefined)
    throw new DomainError('invalid_params', 'cursor and offset exclude each other: send one of them', {
      param: 'offset',
      reason: 'conflicting_params',
    });
}

/** Type errors first: "must be a string" says more than a pattern mismatch of a number. */
const PRIORITY = [
  'whitelistValidation',
  'isDefined',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isArray',
  'isObject',
  'nestedValidation',
];

type Described = { param: string; message: string; code?: ErrorCode; reason: ErrorReason };

function describe(error: ValidationError, path = ''): Described {
  const param = path ? `${path}.${error.property}` : error.property;
  if (error.children && error.children.length > 0) return describe(error.children[0], param);
  const constraints = error.constraints ?? {};
  if (constraints.whitelistValidation) return { param, message: `Unknown field: ${param}`, reason: 'unknown_field' };
  if (error.value === undefined) return { param, message: `${param} is required`, reason: 'missing' };
  const key = PRIORITY.find((k) => k in constraints) ?? Object.keys(constraints)[0];
  const message = (key && constraints[key]) || `${param} is invalid`;
  const code = (error.contexts?.[key] as { code?: ErrorCode } | undefined)?.code;
  return { param, message, code, reason: reasonOf(error, key) };
}

const TYPE_CHECKS = new Set(['isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'nestedValidation']);
const REASON_OF: Record<string, ErrorReason> = {
  isIn: 'not_in_enum',
  isEnum: 'not_in_enum',
  maxLength: 'too_long',
  arrayMaxSize: 'too_long',
  minLength: 'too_short',
  arrayMinSize: 'too_short',
  arrayNotEmpty: 'too_short',
  min: 'out_of_range',
  max: 'out_of_range',
  isDefined: 'missing',
};

/** The constraint that failed, as a reason; a length names its side from the declared bounds. */
function reasonOf(error: ValidationError, key: string | undefined): ErrorReason {
  if (key === undefined) return 'invalid_format';
  if (TYPE_CHECKS.has(key)) return 'invalid_type';
  if (key === 'isLength') {
    const target = error.target?.constructor;
    const bounds = target
      ? getMetadataStorage()
          .getTargetValidationMetadatas(target, '', true, false)
          .find((m) => m.propertyName === error.property && m.constraints?.length === 2 && m.name === 'isLength')
      : undefined;
    const length = typeof error.value === 'string' ? error.value.length : 0;
    return bounds && length > Number(bounds.constraints[1]) ? 'too_long' : 'too_short';
  }
  return REASON_OF[key] ?? 'invalid_format';
}
