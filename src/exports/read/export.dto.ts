import { ApiProperty } from '@nestjs/swagger';
import { EXPORT_FILE_FORMATS } from '../domain/export.events';
import { ExportView } from '../projections/export-views';

export class ExportFiltersDto {
  @ApiProperty({ format: 'date-time', description: 'Calls starting on or after this instant' }) start_date!: string;
  @ApiProperty({ format: 'date-time', description: 'Calls starting on or before this instant' }) end_date!: string;
  @ApiProperty({ nullable: true, type: String }) trunk_id!: string | null;
  @ApiProperty({ nullable: true, enum: ['connected', 'failed', 'disconnected'] }) status!: string | null;
  @ApiProperty({ nullable: true, type: String }) from!: string | null;
  @ApiProperty({ nullable: true, type: String }) to!: string | null;
  @ApiProperty({ nullable: true, enum: ['inbound', 'outbound'] }) direction!: string | null;
}

export class ExportDto {
  @ApiProperty({ example: 'exp_…' }) id!: string;
  @ApiProperty({
    enum: ['pending', 'running', 'completed', 'failed', 'expired'],
    description: 'pending → running → completed (the file can be downloaded until expires_at) → expired; or failed',
  })
  status!: string;
  @ApiProperty({ enum: EXPORT_FILE_FORMATS }) format!: string;
  @ApiProperty({ type: ExportFiltersDto, description: 'The filters as applied, the range resolved to instants' })
  filters!: ExportFiltersDto;
  @ApiProperty({ nullable: true, type: 'integer', description: 'Calls in the file (once completed)' })
  rows!: number | null;
  @ApiProperty({ nullable: true, type: 'integer', description: 'Size of the file in bytes (once completed)' })
  bytes!: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'Why it failed' }) error!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Where to download the file (once completed)' })
  file_url!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) completed_at!: string | null;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'The file is deleted after this instant (EXPORT_RETENTION_HOURS after completion)',
  })
  expires_at!: string | null;
}

export function exportDto(v: ExportView): ExportDto {
  return {
    id: v.id,
    status: v.status,
    format: v.format,
    filters: v.filters,
    rows: v.rows,
    bytes: v.bytes,
    error: v.error,
    file_url: v.status === 'completed' ? `/v1/exports/${v.id}/file` : null,
    created_at: v.created_at,
    completed_at: v.completed_at,
    expires_at: v.expires_at,
  };
}
