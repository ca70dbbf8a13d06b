import { Readable } from 'node:stream';
import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { accountOf, Ctx, RequestContext } from '../../platform/http/request-context';
import { CLOCK, Clock } from '../../shared/clock';
import {
  AuditEventListDto,
  AuditVerifyDto,
  AuditWindowQueryDto,
  ListAuditEventsQueryDto,
} from '../read/audit-events.dto';
import { ExportAuditEvents, ListAuditEvents, VerifyAuditLog } from '../read/audit-events.queries';

const EXPORT_TYPES = { ndjson: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' } as const;

/** The audit log of the caller's account (scope audit or full): list, verify, export. docs/audit.md. */
@ApiTags('audit')
@ApiBearerAuth()
@Controller('v1/audit-events')
export class AuditEventsController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listAuditEvents',
    description:
      "The account's audit log (who changed what, when), hash-chained, in global order; filters by time, resource, actor and type; cursor paging.",
    summary: "List the account's audit events",
  })
  @ApiOkResponse({
    type: AuditEventListDto,
    description:
      'Every event of the account (account, trunks, API keys, webhook endpoints and deliveries, alert rules, checkpoints) in global order, oldest first, with its hash; sealed secrets as the SHA-256 of their ciphertext.',
  })
  list(@Query() query: ListAuditEventsQueryDto, @Ctx() ctx: RequestContext): Promise<AuditEventListDto> {
    return this.queries.execute(new ListAuditEvents(accountOf(ctx), query));
  }

  @Get('verify')
  @ApiOperation({
    operationId: 'verifyAuditEvents',
    description:
      'Recomputes every hash, link and checkpoint of the audit log and answers whether it is intact, or the first break.',
    summary: "Verify the account's hash chain and checkpoints",
  })
  @ApiOkResponse({
    type: AuditVerifyDto,
    description: 'verified true with the head, or false with the first place the chain breaks',
  })
  verify(@Ctx() ctx: RequestContext): Promise<AuditVerifyDto> {
    return this.queries.execute(new VerifyAuditLog(accountOf(ctx)));
  }

  @Get('export')
  @ApiOperation({
    operationId: 'exportAuditEvents',
    description:
      'Streams the audit log as NDJSON (or CSV) with its hashes and checkpoints, for archiving or external verification.',
    summary: "Export the account's audit events",
  })
  @ApiProduces(EXPORT_TYPES.ndjson, EXPORT_TYPES.csv)
  @ApiOkResponse({
    schema: { type: 'string' },
    description:
      'Streamed NDJSON (or CSV with Accept: text/csv): a header, the stream heads before `from`, every event with its hash, an end record. `npm run audit:verify -- FILE` checks it offline.',
  })
  async export(
    @Query() query: AuditWindowQueryDto,
    @Ctx() ctx: RequestContext,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const format = /\btext\/csv\b/i.test(request.headers.accept ?? '') ? 'csv' : 'ndjson';
    const now = this.clock.now();
    const accountId = accountOf(ctx);
    const lines: AsyncIterable<string> = await this.queries.execute(
      new ExportAuditEvents(accountId, query, format, now),
    );
    // The first records are read before answering: a store that is down is a 503, not a cut file.
    const started = await startReading(lines, 3);
    const name = `audit-${accountId}-${now.toISOString().replace(/[:.]/g, '-')}.${format}`;
    // Pulled by the socket: the next page is read only once the previous one was written out.
    await reply
      .type(EXPORT_TYPES[format])
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(started, { highWaterMark: 1 })); // a chunk is a page: buffer one, not 16
  }
}

async function startReading(lines: AsyncIterable<string>, count: number): Promise<AsyncIterable<string>> {
  const iterator = lines[Symbol.asyncIterator]();
  const first: string[] = [];
  let done = false;
  while (first.length < count && !done) {
    const next = await iterator.next();
    if (next.done) done = true;
    else first.push(next.value);
  }
  return (async function* () {
    yield* first;
    if (done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
}
