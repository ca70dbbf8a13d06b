import { StoredEvent } from '../../infrastructure/event-store/event-store.port';
import { WriteOp } from '../../infrastructure/read-model/read-model-store.port';
import { Projection, ProjectionView } from '../../eventsourcing/projection';
import { isExportEvent } from '../domain/export.events';
import { ExportView, exportKeys, exportViewCodec } from './export-views';

/** Export jobs: the view, the runner's queue of open jobs and the retention sweep's queue. */
export const exportsProjection: Projection = {
  name: 'exports',
  types: isExportEvent.types,
  async apply(event: StoredEvent, view: ProjectionView): Promise<WriteOp[]> {
    if (!isExportEvent(event)) return [];
    const id = event.data.export_id;
    const key = exportKeys.export(id);
    if (event.type === 'ExportRequested') {
      const d = event.data;
      const created: ExportView = {
        id,
        account_id: d.account_id,
        status: 'pending',
        format: d.format,
        filters: d.filters,
        attempts: 0,
        rows: null,
        bytes: null,
        error: null,
        created_at: d.requested_at,
        started_at: null,
        completed_at: null,
        expires_at: null,
      };
      return [
        exportViewCodec.set(key, created),
        { op: 'zadd', key: exportKeys.open, score: Date.parse(d.requested_at), member: id },
      ];
    }
    const current = exportViewCodec.decode(await view.get(key));
    if (!current) return [];
    switch (event.type) {
      case 'ExportStarted':
        return [
          exportViewCodec.set(key, {
            ...current,
            status: 'running',
            attempts: event.data.attempt,
            started_at: event.data.started_at,
          }),
        ];
      case 'ExportCompleted': {
        const d = event.data;
        const done = { ...current, status: 'completed' as const, rows: d.rows, bytes: d.bytes };
        return [
          exportViewCodec.set(key, { ...done, completed_at: d.completed_at, expires_at: d.expires_at }),
          { op: 'zrem', key: exportKeys.open, member: id },
          { op: 'zadd', key: exportKeys.expiring, score: Date.parse(d.expires_at), member: id },
        ];
      }
      case 'ExportFailed':
        return [
          exportViewCodec.set(key, { ...current, status: 'failed', error: event.data.reason }),
          { op: 'zrem', key: exportKeys.open, member: id },
        ];
      case 'ExportExpired':
        return [
          exportViewCodec.set(key, { ...current, status: 'expired' }),
          { op: 'zrem', key: exportKeys.expiring, member: id },
        ];
    }
  },
};
