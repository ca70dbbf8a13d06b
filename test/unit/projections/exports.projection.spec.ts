import { ReadModelStore } from '../../../src/infrastructure/read-model/read-model-store.port';
import { ExportEvent } from '../../../src/exports/domain/export.events';
import { exportKeys } from '../../../src/exports/projections/export-views';
import { exportsProjection } from '../../../src/exports/projections/exports.projection';
import { ExportDto } from '../../../src/exports/read/export.dto';
import { GetExport, GetExportHandler, GetExportViewHandler } from '../../../src/exports/read/export.queries';
import { found, projectionSpec } from '../../support/projection-spec';

const AT = '2026-11-21T10:00:00.000Z';
const DONE = '2026-11-21T10:00:05.000Z';
const EXPIRES = '2026-11-22T10:00:05.000Z';
const ids = { export_id: 'exp_1', account_id: 'acct_1' };
const filters = {
  start_date: '2026-11-14T10:00:00.000Z',
  end_date: AT,
  trunk_id: 'conn_1',
  status: null,
  from: null,
  to: null,
  direction: null,
};
const requested: ExportEvent = {
  type: 'ExportRequested',
  data: { ...ids, format: 'parquet', filters, requested_at: AT },
};
const started = (attempt: number): ExportEvent => ({
  type: 'ExportStarted',
  data: { ...ids, attempt, started_at: AT },
});
const completed: ExportEvent = {
  type: 'ExportCompleted',
  data: { ...ids, format: 'parquet', rows: 3, bytes: 900, completed_at: DONE, expires_at: EXPIRES },
};
const failed: ExportEvent = { type: 'ExportFailed', data: { ...ids, reason: 'no disk', failed_at: DONE } };
const expired: ExportEvent = { type: 'ExportExpired', data: { ...ids, expired_at: EXPIRES } };

/** What GET /v1/exports/exp_1 answers to its account and to another, and the runner's two queues. */
async function exports(store: ReadModelStore) {
  const handler = new GetExportHandler(new GetExportViewHandler(store));
  return {
    own: await found(handler.execute(new GetExport('acct_1', 'exp_1'))),
    other: await found(handler.execute(new GetExport('acct_2', 'exp_1'))),
    open: await store.zrange(exportKeys.open, 0, 10, 'asc'),
    expiring: await store.zrange(exportKeys.expiring, 0, 10, 'asc'),
  };
}

const spec = projectionSpec(exportsProjection, exports);

const PENDING: ExportDto = {
  id: 'exp_1',
  status: 'pending',
  format: 'parquet',
  filters,
  rows: null,
  bytes: null,
  error: null,
  file_url: null,
  created_at: AT,
  completed_at: null,
  expires_at: null,
};

describe('exports projection', () => {
  it('serves a requested export as pending to its account only, queued for the runner', async () => {
    await spec
      .given()
      .when(requested)
      .then({ own: PENDING, other: null, open: ['exp_1'], expiring: [] });
  });

  it('serves a started export as running, still queued (a runner cut short leaves it for the next)', async () => {
    await spec
      .given(requested)
      .when(started(1), started(2))
      .then({ own: { ...PENDING, status: 'running' }, other: null, open: ['exp_1'], expiring: [] });
  });

  it('serves a completed export with its file, out of the run queue and into the retention queue', async () => {
    await spec
      .given(requested, started(1))
      .when(completed)
      .then({
        own: {
          ...PENDING,
          status: 'completed',
          rows: 3,
          bytes: 900,
          file_url: '/v1/exports/exp_1/file',
          completed_at: DONE,
          expires_at: EXPIRES,
        },
        other: null,
        open: [],
        expiring: ['exp_1'],
      });
  });

  it('serves a failed export with its reason, queued nowhere', async () => {
    await spec
      .given(requested, started(1))
      .when(failed)
      .then({ own: { ...PENDING, status: 'failed', error: 'no disk' }, other: null, open: [], expiring: [] });
  });

  it('serves an expired export without its file, queued nowhere', async () => {
    await spec
      .given(requested, started(1), completed)
      .when(expired)
      .then({
        own: { ...PENDING, status: 'expired', rows: 3, bytes: 900, completed_at: DONE, expires_at: EXPIRES },
        other: null,
        open: [],
        expiring: [],
      });
  });
});
