import { DomainError } from '../../shared/domain-error';
import { parseBound } from '../../platform/http/time-range';
import { ExportFilters } from '../domain/export.events';
import { CreateExportRequestDto } from './dto/create-export.request.dto';

const DAY_MS = 86_400_000;
const MAX_RANGE_MS = 400 * DAY_MS;

/**
 * The request's filters with the range fixed to instants when it is asked for, so the file holds
 * the same calls whenever the job runs: end_date defaults to now, start_date to 7 days before the
 * end; end before start, or a range over 400 days, is 400 invalid_params (as the analytics range).
 */
export function exportFilters(body: CreateExportRequestDto, now: Date): ExportFilters {
  const end = body.end_date !== undefined ? parseBound(body.end_date, 'end_date', 'end') : now;
  const start =
    body.start_date !== undefined
      ? parseBound(body.start_date, 'start_date', 'start')
      : new Date(end.getTime() - 7 * DAY_MS);
  if (end < start) throw new DomainError('invalid_params', 'end_date is before start_date', { param: 'end_date' });
  if (end.getTime() - start.getTime() > MAX_RANGE_MS)
    throw new DomainError('invalid_params', 'The range is longer than 400 days', { param: 'start_date' });
  return {
    start_date: start.toISOString(),
    end_date: end.toISOString(),
    trunk_id: body.trunk_id ?? null,
    status: body.status ?? null,
    from: body.from ?? null,
    to: body.to ?? null,
    direction: body.direction ?? null,
  };
}
