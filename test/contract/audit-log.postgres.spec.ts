import { tmpdir } from 'node:os';
import { EventStoreAuditLog } from '../../src/audit/read/event-store.audit-log';
import { migrateAuditLog, SqlAuditLog } from '../../src/audit/read/sql.audit-log';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import type { PostgresEventStore } from '../../src/infrastructure/event-store/postgres/postgres.event-store';
import { useIsolatedSchema } from '../support/postgres';
import { auditLogContract } from './audit-log.contract';

const { url, schema } = useIsolatedSchema('audit_log');

for (const adapter of ['sql', 'global log filter'] as const) {
  auditLogContract(`postgres, ${adapter}`, async () => {
    const store = (await createEventStore({ url, schema, dataDir: tmpdir() })) as PostgresEventStore;
    if (adapter === 'sql') await migrateAuditLog(store.sql);
    const reader = adapter === 'sql' ? new SqlAuditLog(store.sql) : new EventStoreAuditLog(store);
    return { store, reader, close: () => store.close() };
  });
}
