import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { accountOf, Ctx, eventMetadata, RequestContext } from '../../platform/http/request-context';
import { DomainError } from '../../shared/domain-error';
import { ExportDto } from '../read/export.dto';
import { GetExport, GetExportView } from '../read/export.queries';
import { ExportView } from '../projections/export-views';
import { CreateExportRequestDto } from '../write/dto/create-export.request.dto';
import { RequestExport } from '../write/export.handlers';
import { exportFileName, FILE_FORMATS } from '../run/export-query';
import { EXPORT_SETTINGS, ExportSettings } from '../exports.settings';

/** Bulk exports of the account's calls (scope full to create, read to follow and download). docs/exports.md. */
@ApiTags('exports')
@ApiBearerAuth()
@Controller('v1/exports')
export class ExportsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(EXPORT_SETTINGS) private readonly settings: ExportSettings,
  ) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({
    operationId: 'createExport',
    description:
      'Starts an export of the calls of a range, with the filters of GET /v1/calls, as CSV, NDJSON or Parquet. Answers at once with the job; follow it with GET /v1/exports/{id} (or the export.completed webhook) and download the file from file_url.',
    summary: 'Export calls to a file',
  })
  @ApiAcceptedResponse({ type: ExportDto, description: 'The job, pending' })
  async create(@Body() body: CreateExportRequestDto, @Ctx() ctx: RequestContext): Promise<ExportDto> {
    const accountId = accountOf(ctx);
    const { exportId }: { exportId: string } = await this.commands.execute(
      new RequestExport(accountId, body, eventMetadata(ctx)),
    );
    return this.queries.execute(new GetExport(accountId, exportId));
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getExport',
    description: 'Reads an export job: its status, and once completed its size, row count, file_url and expires_at.',
    summary: 'Get an export',
  })
  @ApiOkResponse({ type: ExportDto })
  get(@Param('id') id: string, @Ctx() ctx: RequestContext): Promise<ExportDto> {
    return this.queries.execute(new GetExport(accountOf(ctx), id));
  }

  @Get(':id/file')
  @ApiOperation({
    operationId: 'getExportFile',
    description:
      'Streams the file of a completed export (as attachment). Before it is completed: 409 conflict; after its retention: 410 gone.',
    summary: "Download an export's file",
  })
  @ApiProduces(...Object.values(FILE_FORMATS).map((f) => f.mediaType))
  @ApiOkResponse({ schema: { type: 'string', format: 'binary' }, description: 'The file, streamed from disk' })
  @ApiResponse({ status: 409, description: 'conflict: the export is pending, running or failed (no file)' })
  @ApiResponse({ status: 410, description: 'gone: the file was deleted at the end of its retention (expires_at)' })
  async file(@Param('id') id: string, @Ctx() ctx: RequestContext, @Res() reply: FastifyReply): Promise<void> {
    const view: ExportView = await this.queries.execute(new GetExportView(accountOf(ctx), id));
    if (view.status === 'expired')
      throw new DomainError('gone', `Export ${id} expired at ${view.expires_at ?? ''}: its file was deleted`);
    if (view.status !== 'completed')
      throw new DomainError('conflict', `Export ${id} is ${view.status}: it has no file`, { reason: 'not_applicable' });
    const name = exportFileName(view.id, view.format);
    const path = join(this.settings.dir, name);
    // Past expires_at but not swept yet, or another instance's disk: reported as gone, never a 500.
    await access(path).catch(() => {
      throw new DomainError('gone', `Export ${id}'s file is no longer available`);
    });
    await reply
      .type(FILE_FORMATS[view.format].mediaType)
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('content-length', String(view.bytes ?? 0))
      .header('cache-control', 'no-store')
      .send(createReadStream(path));
  }
}
