import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { CallChangeDto } from '../../calls/read/call-changes.dto';
import { RejectionChangeDto } from '../../rejections/read/rejection.dto';

export class CallStreamQueryDto {
  @ApiPropertyOptional({
    description:
      'Resume after this event id, like the Last-Event-ID header (for clients that cannot set headers; the header wins when both are sent)',
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,600}$/, { message: 'last_event_id is not an event id this stream sent' })
  last_event_id?: string;
}

/** One Server-Sent Event of the stream, as the `event:`, `id:` and `data:` lines carry it (documentation). */
export class CallStreamEventDto {
  @ApiProperty({
    enum: ['ready', 'call', 'rejection'],
    description:
      '`ready` first (data `{}`: the position the stream starts from), then `call` for every stored version of a call record and `rejection` for every stored rejection',
  })
  event!: string;
  @ApiProperty({ description: 'The position after this event: send it back as Last-Event-ID to resume' })
  id!: string;
  @ApiProperty({
    description: 'The JSON of the `data:` line: a call as GET /v1/calls/changes lists it, or a rejection',
    oneOf: [
      { $ref: getSchemaPath(CallChangeDto) },
      { $ref: getSchemaPath(RejectionChangeDto) },
      { type: 'object', additionalProperties: false },
    ],
  })
  data!: CallChangeDto | RejectionChangeDto | Record<string, never>;
}
