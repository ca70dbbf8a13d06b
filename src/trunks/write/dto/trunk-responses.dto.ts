import { ApiProperty } from '@nestjs/swagger';
import { PROVIDERS, Provider, TRUNK_STATUSES, TrunkStatus } from '../../domain/trunk.types';

export class TrunkCreatedDto {
  @ApiProperty({ example: 'conn_…' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: TRUNK_STATUSES }) status!: TrunkStatus;
  @ApiProperty({ enum: PROVIDERS }) ai_provider!: Provider;
  @ApiProperty() sip_username!: string;
  @ApiProperty({ description: '<sip_username>@<SIP_DOMAIN>: configure this at the carrier' }) sip_endpoint!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class TrunkUpdatedDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: TRUNK_STATUSES }) status!: TrunkStatus;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class PasswordRotatedDto {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'Unchanged' }) sip_username!: string;
  @ApiProperty({ description: 'The new password, generated server-side (32 characters); returned only here' })
  sip_password!: string;
  @ApiProperty({ format: 'date-time' }) rotated_at!: string;
}
