import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  IsUrl,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { WEBHOOK_EVENT_TYPES, WebhookEventType } from '../../domain/webhook-event-types';

/** https only; hosts without a dot (intranet names) pass here and meet the SSRF guard when sent. */
export const HTTPS_URL = { protocols: ['https'], require_protocol: true, require_tld: false, allow_underscores: true };
const TYPES_MESSAGE = `event_types must be a non-empty list of distinct event types (${WEBHOOK_EVENT_TYPES.join(', ')}), or null for all`;

export class CreateWebhookEndpointRequestDto {
  @ApiProperty({
    format: 'uri',
    maxLength: 2048,
    description:
      'An absolute https:// URL. Private, loopback and link-local addresses are refused unless WEBHOOK_ALLOW_PRIVATE=true',
  })
  @IsString({ message: 'url must be a string' })
  @MaxLength(2048, { message: 'url must be at most 2048 characters' })
  @IsUrl(HTTPS_URL, { message: 'url must be an absolute https:// URL' })
  url!: string;

  @ApiPropertyOptional({ type: String, maxLength: 500, nullable: true })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(500, { message: 'description must be at most 500 characters' })
  description?: string | null;

  @ApiPropertyOptional({
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
    nullable: true,
    description: 'The event types to receive; omitted or null: every type',
  })
  @IsOptional()
  @IsArray({ message: TYPES_MESSAGE })
  @ArrayMinSize(1, { message: TYPES_MESSAGE })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length, { message: TYPES_MESSAGE })
  @ArrayUnique({ message: TYPES_MESSAGE })
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: TYPES_MESSAGE })
  event_types?: WebhookEventType[] | null;

  @ApiPropertyOptional({ description: 'Omitted: true (the endpoint receives events at once)' })
  @IsOptional()
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled?: boolean;
}

/** Every field optional; only the included ones change. `enabled: true` re-enables an endpoint disabled by the worker. */
export class UpdateWebhookEndpointRequestDto {
  @ApiPropertyOptional({ format: 'uri', maxLength: 2048 })
  @ValidateIf((o: UpdateWebhookEndpointRequestDto) => o.url !== undefined)
  @IsString({ message: 'url must be a string' })
  @MaxLength(2048, { message: 'url must be at most 2048 characters' })
  @IsUrl(HTTPS_URL, { message: 'url must be an absolute https:// URL' })
  url?: string;

  @ApiPropertyOptional({ type: String, maxLength: 500, nullable: true })
  @IsOptional()
  @IsString({ message: 'description must be a string or null' })
  @MaxLength(500, { message: 'description must be at most 500 characters' })
  description?: string | null;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENT_TYPES, isArray: true, nullable: true, description: 'null: every type' })
  @IsOptional()
  @IsArray({ message: TYPES_MESSAGE })
  @ArrayMinSize(1, { message: TYPES_MESSAGE })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length, { message: TYPES_MESSAGE })
  @ArrayUnique({ message: TYPES_MESSAGE })
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: TYPES_MESSAGE })
  event_types?: WebhookEventType[] | null;

  @ApiPropertyOptional()
  @ValidateIf((o: UpdateWebhookEndpointRequestDto) => o.enabled !== undefined)
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled?: boolean;
}
