import { Decider } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';
import { ExportEvent, ExportFileFormat, ExportFilters } from './export.events';

export type ExportCommand =
  | {
      type: 'RequestExport';
      data: { exportId: string; accountId: string; format: ExportFileFormat; filters: ExportFilters; at: Date };
    }
  /** A runner takes the job; past maxAttempts starts (each one a run a crash cut short) it fails. */
  | { type: 'StartExport'; data: { at: Date; maxAttempts: number } }
  | { type: 'CompleteExport'; data: { attempt: number; rows: number; bytes: number; at: Date; retentionMs: number } }
  | { type: 'FailExport'; data: { attempt: number; reason: string; at: Date } }
  | { type: 'ExpireExport'; data: { at: Date } };

export type ExportStatus = 'pending' | 'running' | 'completed' | 'failed' | 'expired';

export type ExportState =
  | { status: 'none' }
  | {
      status: ExportStatus;
      exportId: string;
      accountId: string;
      format: ExportFileFormat;
      attempt: number;
      expiresAt: string | null;
    };

type Known = Exclude<ExportState, { status: 'none' }>;

/**
 * An export job: pending → running (one attempt per start) → completed → expired, or failed.
 * Only the attempt that is current may complete or fail it, so a runner that lost its lease and
 * finishes late changes nothing; a job whose runner crashed is started again (the next lease
 * holder finds it running) and fails once it has been started maxAttempts times.
 */
export const exportDecider: Decider<ExportCommand, ExportEvent, ExportState> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'RequestExport') {
      if (state.status !== 'none') throw new DomainError('conflict', `Export ${command.data.exportId} already exists`);
      const d = command.data;
      return [
        {
          type: 'ExportRequested',
          data: {
            export_id: d.exportId,
            account_id: d.accountId,
            format: d.format,
            filters: d.filters,
            requested_at: d.at.toISOString(),
          },
        },
      ];
    }
    if (state.status === 'none') throw new DomainError('not_found', 'Export not found');
    return decideOnKnown(command, state);
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ExportRequested':
        return {
          status: 'pending',
          exportId: event.data.export_id,
          accountId: event.data.account_id,
          format: event.data.format,
          attempt: 0,
          expiresAt: null,
        };
      case 'ExportStarted':
        return state.status === 'none' ? state : { ...state, status: 'running', attempt: event.data.attempt };
      case 'ExportCompleted':
        return state.status === 'none' ? state : { ...state, status: 'completed', expiresAt: event.data.expires_at };
      case 'ExportFailed':
        return state.status === 'none' ? state : { ...state, status: 'failed' };
      case 'ExportExpired':
        return state.status === 'none' ? state : { ...state, status: 'expired' };
    }
  },
};

function decideOnKnown(command: Exclude<ExportCommand, { type: 'RequestExport' }>, state: Known): ExportEvent[] {
  const ids = { export_id: state.exportId, account_id: state.accountId };
  const open = state.status === 'pending' || state.status === 'running';
  switch (command.type) {
    case 'StartExport': {
      if (!open) return [];
      const { at, maxAttempts } = command.data;
      if (state.attempt >= maxAttempts) {
        const reason = `interrupted ${state.attempt} times (the instance running it stopped)`;
        return [{ type: 'ExportFailed', data: { ...ids, reason, failed_at: at.toISOString() } }];
      }
      return [{ type: 'ExportStarted', data: { ...ids, attempt: state.attempt + 1, started_at: at.toISOString() } }];
    }
    case 'CompleteExport': {
      const { attempt, rows, bytes, at, retentionMs } = command.data;
      if (state.status !== 'running' || attempt !== state.attempt) return [];
      const expires_at = new Date(at.getTime() + retentionMs).toISOString();
      const completed_at = at.toISOString();
      return [
        { type: 'ExportCompleted', data: { ...ids, format: state.format, rows, bytes, completed_at, expires_at } },
      ];
    }
    case 'FailExport': {
      const { attempt, reason, at } = command.data;
      if (state.status !== 'running' || attempt !== state.attempt) return [];
      return [{ type: 'ExportFailed', data: { ...ids, reason, failed_at: at.toISOString() } }];
    }
    case 'ExpireExport': {
      if (state.status !== 'completed' || state.expiresAt === null) return [];
      if (command.data.at.getTime() < Date.parse(state.expiresAt)) return [];
      return [{ type: 'ExportExpired', data: { ...ids, expired_at: command.data.at.toISOString() } }];
    }
  }
}

export const exportStream = (exportId: string): string => `export-${exportId}`;
