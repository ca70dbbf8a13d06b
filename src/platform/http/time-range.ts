import { DomainError } from '../../shared/domain-error';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** What a range bound of a query may be: an ISO 8601 instant, or a date. */
export const DATE_OR_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const DAY_MS = 86_400_000;

/**
 * An instant, or a date: as a start, the start of that UTC day; as an end, its last
 * millisecond (decisions.md: "a date as end_date means the end of that UTC day").
 */
export function parseBound(value: string, field: string, as: 'start' | 'end'): Date {
  const ms = DATE_ONLY.test(value)
    ? Date.parse(`${value}T00:00:00.000Z`) + (as === 'end' ? DAY_MS - 1 : 0)
    : Date.parse(value);
  if (Number.isNaN(ms))
    throw new DomainError('invalid_params', `${field} is not a valid ISO 8601 instant or date`, { param: field });
  return new Date(ms);
}
