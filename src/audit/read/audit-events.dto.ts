import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsISO8601, IsOptional, Matches, Max, Min } from 'class-validator';
import { toInteger } from '../../platform/http/pagination';
import { RESOURCE_TYPES, type ResourceType } from '../domain/audit-resources';

const INSTANT = { strict: true } as const;

export class AuditWindowQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Events recorded at or after this instant' })
  @IsOptional()
  @IsISO8601(INSTANT, { message: 'from must be an ISO 8601 instant' })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Events recorded at or before this instant' })
  @IsOptional()
  @IsISO8601(INSTANT, { message: 'to must be an ISO 8601 instant' })
  to?: string;
}

export class ListAuditEventsQueryDto extends AuditWindowQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @toInteger()
  @IsInt({ message: 'limit must be an integer between 1 and 100' })
  @Min(1, { message: 'limit must be an integer between 1 and 100' })
  @Max(100, { message: 'limit must be an integer between 1 and 100' })
  limit: number = 50;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page, with the same filters' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,512}$/, { message: 'cursor is not a cursor this API returned' })
  cursor?: string;

  @ApiPropertyOptional({ enum: RESOURCE_TYPES })
  @IsOptional()
  @IsIn(RESOURCE_TYPES, { message: `resource_type must be one of ${RESOURCE_TYPES.join(', ')}` })
  resource_type?: ResourceType;

  @ApiPropertyOptional({ description: 'A resource id (conn_…, key_…, acct_…, …); with resource_type, of that type' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,128}$/, { message: 'resource_id must be a resource id' })
  resource_id?: string;

  @ApiPropertyOptional({ description: 'The API key id that acted (or a system actor such as system:webhooks)' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_:.-]{1,128}$/, { message: 'actor must be an API key id or a system actor' })
  actor?: string;

  @ApiPropertyOptional({ description: 'Event types, comma-separated (TrunkCreated,SipPasswordRotated)' })
  @IsOptional()
  @Matches(/^[A-Za-z][A-Za-z0-9]{0,63}(,[A-Za-z][A-Za-z0-9]{0,63}){0,19}$/, {
    message: 'type must be event type names separated by commas (at most 20)',
  })
  type?: string;
}

export class AuditActorDto {
  @ApiProperty({ type: String, nullable: true, description: 'API key id, or a system actor (system:webhooks, …)' })
  key_id!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The client's address" }) source_address!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The X-Request-Id of the request' }) request_id!:
    string | null;
}

export class AuditEventDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'Global position (hi:lo): the order of the whole log', example: '1234:567' })
  position!: string;
  @ApiProperty() stream_id!: string;
  @ApiProperty({ type: 'integer', description: '0-based index in its stream' }) revision!: number;
  @ApiProperty({ example: 'TrunkCreated' }) type!: string;
  @ApiProperty({ enum: RESOURCE_TYPES, nullable: true }) resource_type!: ResourceType | null;
  @ApiProperty({ type: String, nullable: true }) resource_id!: string | null;
  @ApiProperty({ type: AuditActorDto }) actor!: AuditActorDto;
  @ApiProperty({ format: 'date-time', description: 'When it was recorded' }) occurred_at!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Event data; every sealed secret shown as {"sealed_sha256": <SHA-256 of its ciphertext>}',
  })
  data!: unknown;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'actor, correlation_id, source_address' })
  metadata!: unknown;
  @ApiProperty({ type: String, nullable: true, description: 'SHA-256 of the canonical record (docs/audit.md)' })
  hash!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'hash of the event before it in its stream' })
  previous_hash!: string | null;
}

export class AuditPaginationDto {
  @ApiProperty({ type: 'integer' }) limit!: number;
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
  @ApiProperty() has_more!: boolean;
}

export class AuditEventListDto {
  @ApiProperty({ type: [AuditEventDto] }) events!: AuditEventDto[];
  @ApiProperty({ type: AuditPaginationDto }) pagination!: AuditPaginationDto;
}

export class AuditHeadDto {
  @ApiProperty() position!: string;
  @ApiProperty() event_id!: string;
  @ApiProperty() stream_id!: string;
  @ApiProperty({ type: 'integer' }) revision!: number;
  @ApiProperty({ type: String, nullable: true }) hash!: string | null;
}

export class AuditBreakDto {
  @ApiProperty() position!: string;
  @ApiProperty() event_id!: string;
  @ApiProperty() stream_id!: string;
  @ApiProperty({ type: 'integer' }) revision!: number;
  @ApiProperty({
    enum: [
      'malformed',
      'out_of_order',
      'revision_gap',
      'hash_mismatch',
      'previous_hash_mismatch',
      'unchained_after_chained',
      'checkpoint_mismatch',
    ],
  })
  reason!: string;
  @ApiProperty() message!: string;
}

export class AuditCheckpointCountsDto {
  @ApiProperty({
    type: 'integer',
    description: 'Checkpoints whose root, stream and event counts were recomputed and match',
  })
  verified!: number;
  @ApiProperty({
    type: 'integer',
    description: 'Checkpoints too far behind their own position to recompute (never seen in practice)',
  })
  unverifiable!: number;
}

export class AuditVerifyDto {
  @ApiProperty() verified!: boolean;
  @ApiProperty({ type: 'integer', description: 'Events checked (up to the break, when there is one)' })
  events!: number;
  @ApiProperty({ type: AuditHeadDto, nullable: true, description: 'The last event checked' })
  head!: AuditHeadDto | null;
  @ApiProperty({ description: 'Merkle root of the stream heads after the last event checked' }) root!: string;
  @ApiProperty({ type: 'integer' }) streams!: number;
  @ApiProperty({ type: AuditCheckpointCountsDto }) checkpoints!: AuditCheckpointCountsDto;
  @ApiProperty({ type: 'integer', description: 'Events written before the chain existed (EventStoreDB only)' })
  unchained!: number;
  @ApiProperty({ type: AuditBreakDto, nullable: true, description: 'The first place the chain does not hold' })
  break!: AuditBreakDto | null;
}
