import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CursorPaginationDto, CursorPaginationQueryDto } from '../../platform/http/pagination';
import { DeliveryView, EndpointView } from '../projections/webhook-views';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhook-event-types';

export class WebhookEndpointDto {
  @ApiProperty({ example: 'we_…' }) id!: string;
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, nullable: true, description: 'null: every event type' })
  event_types!: string[] | null;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'Why the service disabled the endpoint (410 Gone, or every attempt of a delivery failed); cleared by enabling it',
  })
  disabled_reason!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) secret_rotated_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_success_at!: string | null;
}

export class WebhookEndpointCreatedDto extends WebhookEndpointDto {
  @ApiProperty({
    example: 'whsec_…',
    description: 'The signing secret (Standard Webhooks), shown only in this response',
  })
  secret!: string;
}

export class WebhookSecretRotatedDto {
  @ApiProperty() id!: string;
  @ApiProperty({ example: 'whsec_…', description: 'The new signing secret, shown only here' }) secret!: string;
  @ApiProperty({ format: 'date-time' }) rotated_at!: string;
  @ApiProperty({
    format: 'date-time',
    description: 'Until then every request carries a second signature made with the previous secret',
  })
  previous_secret_expires_at!: string;
}

export class WebhookEndpointListDto {
  @ApiProperty({ type: [WebhookEndpointDto] }) webhook_endpoints!: WebhookEndpointDto[];
  @ApiProperty({ type: CursorPaginationDto }) pagination!: CursorPaginationDto;
}

export class DeliveryAttemptDto {
  @ApiProperty({ type: 'integer', description: '1-based, over the life of the delivery' }) attempt!: number;
  @ApiProperty({
    nullable: true,
    type: 'integer',
    description: 'HTTP status of the response; null when none came (timeout, refused)',
  })
  response_status!: number | null;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
  @ApiProperty({ format: 'date-time' }) attempted_at!: string;
}

export class WebhookDeliveryDto {
  @ApiProperty({ example: 'wd_…' }) id!: string;
  @ApiProperty() endpoint_id!: string;
  @ApiProperty({ example: 'evt_…', description: 'The webhook-id header: the same for every attempt and replay' })
  event_id!: string;
  @ApiProperty({ example: 'trunk.created' }) event_type!: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'] }) status!: string;
  @ApiProperty({ type: 'integer' }) attempts!: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) next_attempt_at!: string | null;
  @ApiProperty({ nullable: true, type: 'integer' }) last_response_status!: number | null;
  @ApiProperty({ nullable: true, type: String }) last_error!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['exhausted', 'endpoint_gone', 'endpoint_disabled', 'endpoint_deleted', null],
    description: 'Why the delivery failed for good; null while pending or once succeeded',
  })
  failure_reason!: string | null;
  @ApiProperty({ type: [DeliveryAttemptDto], description: 'The last 20 attempts, oldest first' })
  attempt_history!: DeliveryAttemptDto[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class WebhookDeliveryListDto {
  @ApiProperty({ type: [WebhookDeliveryDto] }) deliveries!: WebhookDeliveryDto[];
  @ApiProperty({ type: CursorPaginationDto }) pagination!: CursorPaginationDto;
}

export class ListDeliveriesQueryDto extends CursorPaginationQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'succeeded', 'failed'] })
  @IsOptional()
  @IsIn(['pending', 'succeeded', 'failed'], { message: 'status must be pending, succeeded or failed' })
  status?: 'pending' | 'succeeded' | 'failed';
}

export function endpointDto(v: EndpointView): WebhookEndpointDto {
  return {
    id: v.id,
    url: v.url,
    description: v.description,
    event_types: v.event_types,
    enabled: v.enabled,
    disabled_reason: v.disabled_reason,
    created_at: v.created_at,
    updated_at: v.updated_at,
    secret_rotated_at: v.secret_rotated_at,
    last_success_at: v.last_success_at,
  };
}

export function deliveryDto(v: DeliveryView): WebhookDeliveryDto {
  return {
    id: v.id,
    endpoint_id: v.endpoint_id,
    event_id: v.event_id,
    event_type: v.event_type,
    status: v.status,
    attempts: v.attempts,
    next_attempt_at: v.next_attempt_at,
    last_response_status: v.last_response_status,
    last_error: v.last_error,
    failure_reason: v.failure_reason,
    attempt_history: v.history,
    created_at: v.created_at,
    updated_at: v.updated_at,
  };
}
