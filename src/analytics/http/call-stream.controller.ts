import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CallChangeDto } from '../../calls/read/call-changes.dto';
import { accountOf, Ctx, RequestContext } from '../../platform/http/request-context';
import { RejectionChangeDto } from '../../rejections/read/rejection.dto';
import { CallStreamEventDto, CallStreamQueryDto } from '../live/call-stream.dto';
import { CallStreams } from '../live/call-streams';

@ApiTags('calls')
@ApiBearerAuth()
@ApiExtraModels(CallChangeDto, RejectionChangeDto, CallStreamEventDto)
@Controller('v1/calls/stream')
export class CallStreamController {
  constructor(private readonly streams: CallStreams) {}

  @Get()
  @ApiOperation({
    operationId: 'streamCalls',
    summary: 'Live stream of call records and rejections as they are stored (Server-Sent Events)',
    description:
      "The account's call records (`event: call`, each stored version, as GET /v1/calls/changes lists them) and the gateway's rejections (`event: rejection`) as they are stored, within about a second. Without Last-Event-ID it starts at what is stored next; with it, right after that event, with no gap and no repeat (records stored while disconnected, late arrivals with old start times included). Comment lines (`: heartbeat`) keep proxies open. A client that does not read is cut off once the service holds CALL_STREAM_MAX_BUFFER_BYTES for it: resume with Last-Event-ID. Counted as one request. See docs/analytics.md.",
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The id of the last event received: the stream resumes right after it',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    description:
      'text/event-stream: `retry:`, `id:`, `event:` and `data:` lines, one event per blank-line-separated block; each event is described by CallStreamEventDto (its `data:` line is the JSON of `data`)',
    content: {
      'text/event-stream': {
        schema: {
          anyOf: [{ type: 'string', description: 'The stream as sent' }, { $ref: getSchemaPath(CallStreamEventDto) }],
        },
      },
    },
  })
  async stream(
    @Query() query: CallStreamQueryDto,
    @Headers('last-event-id') header: string | undefined,
    @Ctx() ctx: RequestContext,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const lastEventId =
      header !== undefined
        ? { text: header, param: 'Last-Event-ID' }
        : query.last_event_id !== undefined
          ? { text: query.last_event_id, param: 'last_event_id' }
          : null;
    const open = await this.streams.start(accountOf(ctx), lastEventId);
    void reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-accel-buffering', 'no')
      .send(open.body);
    open.run(reply.raw);
  }
}
