import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiProperty,
  ApiTags,
  ApiOperation,
} from '@nestjs/swagger';
import { Ctx, gatewayScopeOf, RequestContext } from '../../platform/http/request-context';
import { CallIngestion, IngestResult } from '../ingestion/call-ingestion.service';
import { ApiMediaTypeSchemas } from '../../platform/openapi/openapi.media-types';
import { INGEST_BODY_SCHEMA, INGEST_NDJSON_SCHEMA } from './ingest-body.schema';

class RejectionDto {
  @ApiProperty({ type: 'integer', description: '0-based position of the record in the request' }) index!: number;
  @ApiProperty({ nullable: true, type: String }) id!: string | null;
  @ApiProperty({
    example: 'invalid_field',
    description: 'invalid_json, missing_required_field, invalid_field, too_large, unknown_trunk',
  })
  code!: string;
  @ApiProperty() message!: string;
}

class IngestResultDto {
  @ApiProperty({ type: 'integer', description: 'Records stored durably before this response' }) accepted!: number;
  @ApiProperty({ type: [RejectionDto] }) rejected!: RejectionDto[];
}

@ApiTags('ingestion')
@ApiBearerAuth()
@Controller('v1/ingest')
export class IngestController {
  constructor(private readonly ingestion: CallIngestion) {}

  @Post('calls')
  @ApiOperation({
    operationId: 'ingestCalls',
    description:
      'Stores call records from the SIP gateway, as NDJSON (one record a line) or JSON. Each record is judged on its own; 200 means every accepted record is durable, with the refused ones listed by index and reason.',
    summary: 'Ingest call records (from the SIP gateway)',
  })
  @HttpCode(200)
  @ApiConsumes('application/x-ndjson', 'application/json')
  @ApiBody({ schema: INGEST_BODY_SCHEMA as never })
  @ApiMediaTypeSchemas({ 'application/x-ndjson': INGEST_NDJSON_SCHEMA })
  @ApiOkResponse({
    type: IngestResultDto,
    description:
      'Up to 10,000 records or 16 MiB. 200 means every accepted record is durable; re-sending an id replaces the call. 503 with Retry-After when saturated.',
  })
  ingest(@Body() body: unknown, @Ctx() ctx: RequestContext): Promise<IngestResult> {
    return this.ingestion.ingest(gatewayScopeOf(ctx), body);
  }
}
