import {
  isNumber,
  isString,
  jsonCodec,
  nullable,
  objectOf,
  oneOf,
} from '../../infrastructure/read-model/read-model.codec';
import { ExportStatus } from '../domain/export.decider';
import { EXPORT_FILE_FORMATS, ExportFileFormat, ExportFilters } from '../domain/export.events';

const STATUSES: readonly ExportStatus[] = ['pending', 'running', 'completed', 'failed', 'expired'];

/** An export job as the read side serves it (GET /v1/exports/{id}) and the runner finds it. */
export interface ExportView {
  id: string;
  account_id: string;
  status: ExportStatus;
  format: ExportFileFormat;
  filters: ExportFilters;
  attempts: number;
  rows: number | null;
  bytes: number | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  expires_at: string | null;
}

const text = nullable(isString);

export const exportViewCodec = jsonCodec(
  'export view',
  objectOf<ExportView>({
    id: isString,
    account_id: isString,
    status: oneOf(STATUSES),
    format: oneOf(EXPORT_FILE_FORMATS),
    filters: objectOf<ExportFilters>({
      start_date: isString,
      end_date: isString,
      trunk_id: text,
      status: text,
      from: text,
      to: text,
      direction: text,
    }),
    attempts: isNumber,
    rows: nullable(isNumber),
    bytes: nullable(isNumber),
    error: text,
    created_at: isString,
    started_at: text,
    completed_at: text,
    expires_at: text,
  }),
);

export const exportKeys = {
  export: (id: string) => `export:${id}`,
  exportPrefix: 'export:',
  /** Pending and running jobs, oldest first: the runner's queue. */
  open: 'exports-open',
  /** Completed jobs by the instant their file expires: the retention sweep's queue. */
  expiring: 'exports-expiring',
};
