import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { StoredEvent } from '../../infrastructure/event-store/event-store.port';
import { DomainError } from '../../shared/domain-error';
import { RESOURCE_TYPES, streamOf, streamPrefixOf } from '../domain/audit-resources';
import { auditEventOf } from '../verify/audit-record';
import { ChainVerifier, type VerifyOutcome } from '../verify/chain-verifier';
import { decodeCursor, encodeCursor, filterFingerprint } from './audit-cursor';
import type { AuditEventListDto, AuditWindowQueryDto, ListAuditEventsQueryDto } from './audit-events.dto';
import { exportLines } from './audit-export';
import { AUDIT_LOG, type AuditFilter, type AuditLogReader } from '../../eventsourcing/audit-log.port';

export class ListAuditEvents {
  constructor(
    readonly accountId: string,
    readonly query: ListAuditEventsQueryDto,
  ) {}
}

export class VerifyAuditLog {
  constructor(readonly accountId: string) {}
}

export class ExportAuditEvents {
  constructor(
    readonly accountId: string,
    readonly window: AuditWindowQueryDto,
    readonly format: 'ndjson' | 'csv',
    readonly exportedAt: Date,
  ) {}
}

/** from/to as instants, checked for order: a window that ends before it starts is a mistake. */
export function windowOf(q: AuditWindowQueryDto): { from: Date | null; to: Date | null } {
  const from = q.from ? new Date(q.from) : null;
  const to = q.to ? new Date(q.to) : null;
  if (from && to && to < from) throw new DomainError('invalid_params', 'to must not be before from', { param: 'to' });
  return { from, to };
}

function filterOf(q: ListAuditEventsQueryDto): AuditFilter {
  const { from, to } = windowOf(q);
  const types = q.resource_type ? [q.resource_type] : RESOURCE_TYPES;
  return {
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(q.type ? { types: q.type.split(',') } : {}),
    ...(q.actor ? { actor: q.actor } : {}),
    // An id alone may name any kind of resource: the streams it could be are few.
    ...(q.resource_id ? { streams: types.map((t) => streamOf(t, q.resource_id as string)) } : {}),
    ...(q.resource_type && !q.resource_id ? { streamPrefix: streamPrefixOf(q.resource_type) } : {}),
  };
}

/** Every event of the caller's account, in global order, a page at a time by cursor. */
@QueryHandler(ListAuditEvents)
export class ListAuditEventsHandler implements IQueryHandler<ListAuditEvents, AuditEventListDto> {
  constructor(@Inject(AUDIT_LOG) private readonly log: AuditLogReader) {}

  async execute({ accountId, query }: ListAuditEvents): Promise<AuditEventListDto> {
    const fingerprint = filterFingerprint(query);
    const after = query.cursor ? decodeCursor(query.cursor, fingerprint) : null;
    const filter = filterOf(query);
    const found = await this.log.read({ accountId, after, limit: query.limit + 1, filter });
    const page = found.slice(0, query.limit);
    const hasMore = found.length > query.limit;
    return {
      events: page.map(auditEventOf),
      pagination: {
        limit: query.limit,
        next_cursor: hasMore ? encodeCursor(page[page.length - 1].position, fingerprint) : null,
        has_more: hasMore,
      },
    };
  }
}

const PAGE = 1000;

/** Recomputes the whole chain of the account and every checkpoint, from the first event on. */
@QueryHandler(VerifyAuditLog)
export class VerifyAuditLogHandler implements IQueryHandler<VerifyAuditLog, VerifyOutcome> {
  constructor(@Inject(AUDIT_LOG) private readonly log: AuditLogReader) {}

  async execute({ accountId }: VerifyAuditLog): Promise<VerifyOutcome> {
    const verifier = new ChainVerifier(accountId);
    let page: StoredEvent[] = [];
    do {
      const after = page.length > 0 ? page[page.length - 1].position : null;
      page = await this.log.read({ accountId, after, limit: PAGE, filter: {} });
      for (const event of page) if (!verifier.add(auditEventOf(event))) return verifier.result();
    } while (page.length === PAGE);
    return verifier.result();
  }
}

/** The export's lines, pulled by the response stream as the client reads (constant memory). */
@QueryHandler(ExportAuditEvents)
export class ExportAuditEventsHandler implements IQueryHandler<ExportAuditEvents, AsyncIterable<string>> {
  constructor(@Inject(AUDIT_LOG) private readonly log: AuditLogReader) {}

  execute({ accountId, window, format, exportedAt }: ExportAuditEvents): Promise<AsyncIterable<string>> {
    return Promise.resolve(exportLines(this.log, { accountId, ...windowOf(window), format, exportedAt }));
  }
}
