import { ExportCommand, exportDecider } from '../../../src/exports/domain/export.decider';
import { ExportEvent, ExportFilters } from '../../../src/exports/domain/export.events';
import { deciderSpec } from '../../support/decider-spec';

const spec = deciderSpec(exportDecider);
const AT = new Date('2026-11-21T10:00:00.000Z');
const LATER = new Date('2026-11-21T10:00:05.000Z');
const HOUR = 3_600_000;
const ids = { export_id: 'exp_1', account_id: 'acct_1' };
const filters: ExportFilters = {
  start_date: '2026-11-14T10:00:00.000Z',
  end_date: '2026-11-21T10:00:00.000Z',
  trunk_id: null,
  status: 'connected',
  from: null,
  to: null,
  direction: null,
};
const requested: ExportEvent = {
  type: 'ExportRequested',
  data: { ...ids, format: 'csv', filters, requested_at: AT.toISOString() },
};
const started = (attempt: number): ExportEvent => ({
  type: 'ExportStarted',
  data: { ...ids, attempt, started_at: AT.toISOString() },
});
const completed: ExportEvent = {
  type: 'ExportCompleted',
  data: {
    ...ids,
    format: 'csv',
    rows: 10,
    bytes: 2048,
    completed_at: LATER.toISOString(),
    expires_at: new Date(LATER.getTime() + 24 * HOUR).toISOString(),
  },
};
const start: ExportCommand = { type: 'StartExport', data: { at: AT, maxAttempts: 3 } };
const complete = (attempt: number): ExportCommand => ({
  type: 'CompleteExport',
  data: { attempt, rows: 10, bytes: 2048, at: LATER, retentionMs: 24 * HOUR },
});
const fail = (attempt: number): ExportCommand => ({
  type: 'FailExport',
  data: { attempt, reason: 'The export could not be written; request it again', at: LATER },
});
const expire = (at: Date): ExportCommand => ({ type: 'ExpireExport', data: { at } });

describe('export decider', () => {
  it('records a request with its resolved filters', () => {
    spec
      .given([])
      .when({ type: 'RequestExport', data: { exportId: 'exp_1', accountId: 'acct_1', format: 'csv', filters, at: AT } })
      .then([requested]);
  });

  it('refuses a second request under the same id, and any step of an export that does not exist', () => {
    spec
      .given([requested])
      .when({ type: 'RequestExport', data: { exportId: 'exp_1', accountId: 'acct_1', format: 'csv', filters, at: AT } })
      .thenThrows('conflict');
    spec.given([]).when(start).thenThrows('not_found');
    spec.given([]).when(expire(AT)).thenThrows('not_found');
  });

  it('starts a pending export as attempt 1', () => {
    spec
      .given([requested])
      .when(start)
      .then([started(1)]);
  });

  it('starts an export found running again (its runner was cut short), as the next attempt', () => {
    spec
      .given([requested, started(1)])
      .when(start)
      .then([started(2)]);
  });

  it('fails an export started maxAttempts times without finishing, instead of leaving it running', () => {
    spec
      .given([requested, started(1), started(2), started(3)])
      .when(start)
      .then([
        {
          type: 'ExportFailed',
          data: {
            ...ids,
            reason: 'interrupted 3 times (the instance running it stopped)',
            failed_at: AT.toISOString(),
          },
        },
      ]);
  });

  it('completes the current attempt with its size and the end of its retention', () => {
    spec
      .given([requested, started(1)])
      .when(complete(1))
      .then([completed]);
  });

  it('drops the outcome of an attempt that is no longer current (a runner that lost its lease)', () => {
    spec
      .given([requested, started(1), started(2)])
      .when(complete(1))
      .then([]);
    spec
      .given([requested, started(1), started(2)])
      .when(fail(1))
      .then([]);
    spec.given([requested]).when(complete(0)).then([]);
  });

  it('fails the current attempt with its reason', () => {
    spec
      .given([requested, started(1)])
      .when(fail(1))
      .then([
        {
          type: 'ExportFailed',
          data: { ...ids, reason: 'The export could not be written; request it again', failed_at: LATER.toISOString() },
        },
      ]);
  });

  it('starts, completes or fails a finished export no more', () => {
    spec
      .given([requested, started(1), completed])
      .when(start)
      .then([]);
    spec
      .given([requested, started(1), completed])
      .when(complete(1))
      .then([]);
    spec
      .given([requested, started(1), completed])
      .when(fail(1))
      .then([]);
  });

  it('expires a completed export once its retention has passed, once', () => {
    const expiresAt = new Date(LATER.getTime() + 24 * HOUR);
    spec
      .given([requested, started(1), completed])
      .when(expire(new Date(expiresAt.getTime() - 1)))
      .then([]);
    const expired: ExportEvent = { type: 'ExportExpired', data: { ...ids, expired_at: expiresAt.toISOString() } };
    spec
      .given([requested, started(1), completed])
      .when(expire(expiresAt))
      .then([expired]);
    spec
      .given([requested, started(1), completed, expired])
      .when(expire(expiresAt))
      .then([]);
  });

  it('does not expire an export that has no file', () => {
    spec.given([requested]).when(expire(LATER)).then([]);
    spec
      .given([requested, started(1)])
      .when(expire(LATER))
      .then([]);
  });
});
