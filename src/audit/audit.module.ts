import { DynamicModule, Module } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '../infrastructure/event-store/event-store.port';
import { AUDIT_SETTINGS, AuditSettings } from './audit.settings';
import { AuditCheckpointer } from './checkpoints/audit-checkpointer';
import { CommandRunner } from '../eventsourcing/command-runner';
import { RecordAuditCheckpointHandler } from './write/record-audit-checkpoint.handler';
import { AuditEventsController } from './http/audit-events.controller';
import { createAuditLog } from './read/audit-log.factory';
import { AUDIT_LOG } from '../eventsourcing/audit-log.port';
import { ExportAuditEventsHandler, ListAuditEventsHandler, VerifyAuditLogHandler } from './read/audit-events.queries';

/**
 * The audit log: the hash-chained event log of each account, listed, verified and exported
 * (scope audit), and the checkpointer that seals each account's stream heads. AUDIT_LOG is
 * exported for the point-in-time reads of other views. docs/audit.md.
 */
@Module({
  controllers: [AuditEventsController],
  providers: [
    {
      provide: AUDIT_LOG,
      inject: [EVENT_STORE],
      useFactory: (events: EventStore) => createAuditLog(events),
    },
    ListAuditEventsHandler,
    VerifyAuditLogHandler,
    ExportAuditEventsHandler,
    CommandRunner,
    RecordAuditCheckpointHandler,
    AuditCheckpointer,
  ],
  exports: [AUDIT_LOG],
})
export class AuditModule {
  static forRoot(settings: AuditSettings): DynamicModule {
    return { module: AuditModule, providers: [{ provide: AUDIT_SETTINGS, useValue: settings }] };
  }
}
