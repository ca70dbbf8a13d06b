import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { DATE_OR_INSTANT } from '../../../platform/http/time-range';
import { EXPORT_FILE_FORMATS, ExportFileFormat } from '../../domain/export.events';

const E164 = /^\+[1-9]\d{1,14}$/;

/** The filters of GET /v1/calls (same names, same rules) and the file format. */
export class CreateExportRequestDto {
  @ApiProperty({
    enum: EXPORT_FILE_FORMATS,
    description: 'csv (with a header row), ndjson (one call a line) or parquet',
  })
  @IsIn(EXPORT_FILE_FORMATS, { message: 'format must be csv, ndjson or parquet' })
  format!: ExportFileFormat;

  @ApiPropertyOptional({
    description: 'Calls starting on or after this instant (or date); default 7 days before end_date',
  })
  @IsOptional()
  @IsString({ message: 'start_date must be an ISO 8601 instant or date' })
  @Matches(DATE_OR_INSTANT, { message: 'start_date must be an ISO 8601 instant or date' })
  start_date?: string;

  @ApiPropertyOptional({
    description: 'Calls starting on or before this instant (a date means the end of that UTC day); default now',
  })
  @IsOptional()
  @IsString({ message: 'end_date must be an ISO 8601 instant or date' })
  @Matches(DATE_OR_INSTANT, { message: 'end_date must be an ISO 8601 instant or date' })
  end_date?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'trunk_id must be a trunk id (conn_…)' })
  @Matches(/^conn_[A-Za-z0-9]{1,64}$/, { message: 'trunk_id must be a trunk id (conn_…)' })
  trunk_id?: string;

  @ApiPropertyOptional({ enum: ['connected', 'failed', 'disconnected'] })
  @IsOptional()
  @IsIn(['connected', 'failed', 'disconnected'], { message: 'status must be connected, failed or disconnected' })
  status?: 'connected' | 'failed' | 'disconnected';

  @ApiPropertyOptional({ description: 'Exact caller number (E.164; matches from_e164)' })
  @IsOptional()
  @IsString({ message: 'from must be an E.164 number' })
  @Matches(E164, { message: 'from must be an E.164 number' })
  from?: string;

  @ApiPropertyOptional({ description: 'Exact called number (E.164; matches to_e164)' })
  @IsOptional()
  @IsString({ message: 'to must be an E.164 number' })
  @Matches(E164, { message: 'to must be an E.164 number' })
  to?: string;

  @ApiPropertyOptional({ enum: ['inbound', 'outbound'] })
  @IsOptional()
  @IsIn(['inbound', 'outbound'], { message: 'direction must be inbound or outbound' })
  direction?: 'inbound' | 'outbound';
}
