import { tmpdir } from 'node:os';
import { EventStoreAuditLog } from '../../src/audit/read/event-store.audit-log';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import { auditLogContract } from './audit-log.contract';

const url = process.env.EVENTSTORE_URL;

if (url) {
  auditLogContract('eventstoredb, global log filter', async () => {
    const store = await createEventStore({ url, dataDir: tmpdir() });
    return { store, reader: new EventStoreAuditLog(store), close: () => store.close() };
  });
} else {
  describe('AuditLogReader contract (eventstoredb)', () => {
    it('is skipped: EVENTSTORE_URL not set', () => {
      console.warn('skipped: EVENTSTORE_URL not set — the EventStoreDB audit log contract needs a live server');
    });
  });
}
