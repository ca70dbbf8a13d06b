import { DomainError } from '../../shared/domain-error';
import { parseBound } from '../../platform/http/time-range';
import { AnalyticsQueryDto } from './analytics.dto';

export const HOUR = 3_600_000;
export const DAY = 86_400_000;
const MAX_RANGE = 400 * DAY;

/** decisions.md's range: instants or dates, default the last 7 days up to now, at most 400 days. */
export function analyticsRange(query: AnalyticsQueryDto, now: Date): { start: Date; end: Date } {
  const end = query.end_date ? parseBound(query.end_date, 'end_date', 'end') : now;
  const start = query.start_date
    ? parseBound(query.start_date, 'start_date', 'start')
    : new Date(end.getTime() - 7 * DAY);
  if (end < start) throw new DomainError('invalid_params', 'end_date is before start_date', { param: 'end_date' });
  if (end.getTime() - start.getTime() > MAX_RANGE)
    throw new DomainError('invalid_params', 'The range is longer than 400 days', { param: 'start_date' });
  return { start, end };
}

/** Every hour or UTC day touching the range, empty ones included. */
export function buckets(start: Date, end: Date, hourly: boolean): number[] {
  const step = hourly ? HOUR : DAY;
  const out: number[] = [];
  for (let at = Math.floor(start.getTime() / step) * step; at <= end.getTime(); at += step) out.push(at);
  return out;
}
