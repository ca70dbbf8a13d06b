import { ApiProperty } from '@nestjs/swagger';
import { SIP_REASON } from '../../calls/ingestion/call-signalling';
import { recordListSchema } from '../../calls/http/record-list.schema';
import { REJECTION_REASONS } from '../rejection';

/** The published body of POST /v1/ingest/rejections; records are validated one by one (rejection.validation.ts). */
const REJECTION = {
  type: 'object',
  required: ['id', 'at', 'reason', 'sip_code', 'source_address'],
  properties: {
    id: {
      type: 'string',
      pattern: '^rej_[A-Za-z0-9_-]{1,64}$',
      description: 'Chosen by the gateway, the same on every re-send (the reference gateway hashes Call-ID and CSeq)',
    },
    at: { type: 'string', format: 'date-time', description: 'When the INVITE was refused (milliseconds kept)' },
    reason: { type: 'string', enum: [...REJECTION_REASONS] },
    sip_code: { type: 'integer', minimum: 300, maximum: 699, description: 'The final response sent to the carrier' },
    sip_reason: { type: 'string', pattern: SIP_REASON.source, nullable: true },
    source_address: { type: 'string', description: "The carrier's IP address" },
    sip_username: {
      type: 'string',
      nullable: true,
      description: 'As the carrier sent it; kept only when it is a well-formed user name',
    },
    from: { type: 'string', nullable: true, description: 'The caller as the From URI gives it; kept when well formed' },
    to: { type: 'string', nullable: true, description: 'The called party; kept when well formed' },
    trunk_id: { type: 'string', nullable: true, description: 'When the gateway knows it; else found by sip_username' },
  },
};

export const REJECTIONS_BODY_SCHEMA = recordListSchema(
  'rejections',
  REJECTION,
  'application/x-ndjson (one rejection a line), a JSON array, or {"rejections": [...]}. Up to 10,000 records or 16 MiB.',
);

class RefusedRecordDto {
  @ApiProperty({ type: 'integer', description: '0-based position of the record in the request' }) index!: number;
  @ApiProperty({ nullable: true, type: String }) id!: string | null;
  @ApiProperty({ description: 'invalid_json, missing_required_field, invalid_field, unknown_trunk' }) code!: string;
  @ApiProperty() message!: string;
}

export class RejectionIngestResultDto {
  @ApiProperty({ type: 'integer', description: 'Rejections stored before this response' }) accepted!: number;
  @ApiProperty({ type: [RefusedRecordDto] }) rejected!: RefusedRecordDto[];
}
