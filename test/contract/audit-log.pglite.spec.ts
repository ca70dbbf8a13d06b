import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreAuditLog } from '../../src/audit/read/event-store.audit-log';
import { migrateAuditLog, SqlAuditLog } from '../../src/audit/read/sql.audit-log';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import type { PostgresEventStore } from '../../src/infrastructure/event-store/postgres/postgres.event-store';
import { auditLogContract } from './audit-log.contract';

/** Both adapters over one PGlite store (one instance per data directory, so one each, in turn). */
for (const adapter of ['sql', 'global log filter'] as const) {
  const dataDir = mkdtempSync(join(tmpdir(), 'trunkline-audit-log-'));
  afterAll(() => rm(dataDir, { recursive: true, force: true }));
  auditLogContract(`pglite, ${adapter}`, async () => {
    const store = (await createEventStore({ dataDir })) as PostgresEventStore;
    if (adapter === 'sql') await migrateAuditLog(store.sql);
    const reader = adapter === 'sql' ? new SqlAuditLog(store.sql) : new EventStoreAuditLog(store);
    return { store, reader, close: () => store.close() };
  });
}
