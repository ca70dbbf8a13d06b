import { CALLER } from '../caller';
import { FAILURE_CLASSES } from '../../shared/failure-taxonomy';
import { recordListSchema } from './record-list.schema';

/**
 * The published request body of POST /v1/ingest/calls (decisions.md's ingestion rules), as the
 * OpenAPI schema: records are validated one by one by call-record.validation.ts, not by a DTO,
 * so that one bad record is rejected on its own instead of failing the batch.
 */
const integer = (maximum: number) => ({ type: 'integer', minimum: 0, maximum, nullable: true });

const CALLER_FIELD = (description: string) => ({
  type: 'string',
  pattern: CALLER.source,
  maxLength: 128,
  description: `${description}; the E.164 form is returned beside it as from_e164/to_e164`,
});
const instant = (description: string) => ({ type: 'string', format: 'date-time', nullable: true, description });

/** What a SIP gateway adds (docs/sip-gateway.md); all optional. */
const SIGNALLING_PROPERTIES = {
  invite_at: instant('When the gateway received the INVITE (milliseconds kept)'),
  ringing_at: instant('First 180/183 from the agent'),
  answered_at: instant('200 OK from the agent'),
  sip_code: {
    type: 'integer',
    minimum: 100,
    maximum: 699,
    nullable: true,
    description: "The INVITE's final response code",
  },
  sip_reason: { type: 'string', maxLength: 128, nullable: true, description: 'Its reason phrase' },
  q850_cause: { type: 'integer', minimum: 1, maximum: 127, nullable: true, description: 'From a Reason: Q.850 header' },
  failure_class: {
    type: 'string',
    enum: [...FAILURE_CLASSES],
    nullable: true,
    description: 'Derived from sip_code by the failure taxonomy when absent',
  },
  retryable: { type: 'boolean', nullable: true, description: 'Derived from sip_code when absent' },
  source_address: { type: 'string', nullable: true, description: "The carrier's IP address" },
};

const MOS = {
  type: 'number',
  minimum: 1,
  maximum: 4.5,
  nullable: true,
  description: 'E-model MOS (ITU-T G.107), kept to 2 decimals',
};

const CALL_RECORD = {
  type: 'object',
  required: ['id', 'trunk_id', 'from', 'to', 'start_time'],
  properties: {
    id: { type: 'string', pattern: '^call_[A-Za-z0-9_-]{1,64}$', description: 'Re-sending an id replaces that call' },
    trunk_id: {
      type: 'string',
      pattern: '^conn_[A-Za-z0-9]{1,64}$',
      description: "A trunk of the key's account; the account comes from the trunk",
    },
    direction: { type: 'string', enum: ['inbound', 'outbound'], default: 'inbound' },
    from: CALLER_FIELD(
      'The caller: E.164, or as the From URI gives it (anonymous, Restricted, a user name, a sip:/tel: URI)',
    ),
    to: CALLER_FIELD('The called party: E.164, or as the request URI gives it'),
    status: {
      type: 'string',
      enum: ['connected', 'failed', 'disconnected'],
      description: 'Required unless sip_code is given: then the failure taxonomy derives it (docs/sip-gateway.md)',
    },
    start_time: { type: 'string', format: 'date-time' },
    end_time: { type: 'string', format: 'date-time', nullable: true, description: 'Not before start_time' },
    duration_seconds: { ...integer(604_800), description: 'Derived from the times when absent' },
    carrier_lag_ms: integer(600_000),
    ai_latency_ms: integer(600_000),
    gateway_processing_ms: integer(600_000),
    packet_loss_percent: { type: 'number', minimum: 0, maximum: 100, nullable: true },
    jitter_ms: integer(600_000),
    codec_used: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,32}$', nullable: true },
    disconnect_reason: {
      type: 'string',
      pattern: '^[A-Za-z0-9._ -]{1,64}$',
      nullable: true,
      description: 'caller_hangup, agent_hangup, caller_cancel, dialog_timeout, media_timeout, …',
    },
    mos: MOS,
    billable_seconds: {
      ...integer(604_800),
      description:
        'Answer to end; at most duration_seconds, 0 for a call never answered. Derived when absent: floor((end_time − answered_at) / 1 s), 0 when never answered, duration_seconds without answered_at',
    },
    metrics: {
      type: 'object',
      description: 'The latency and quality fields may also sit here (detail form)',
      properties: {
        carrier_lag_ms: integer(600_000),
        ai_latency_ms: integer(600_000),
        gateway_processing_ms: integer(600_000),
        packet_loss_percent: { type: 'number', minimum: 0, maximum: 100, nullable: true },
        jitter_ms: integer(600_000),
        codec_used: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,32}$', nullable: true },
        mos: MOS,
      },
    },
    turns: {
      type: 'array',
      maxItems: 2000,
      nullable: true,
      items: {
        type: 'object',
        required: ['turn_number', 'speaker', 'duration_ms'],
        properties: {
          turn_number: { type: 'integer', minimum: 1, maximum: 2000 },
          speaker: { type: 'string', enum: ['caller', 'agent'] },
          duration_ms: { type: 'integer', minimum: 0, maximum: 86_400_000 },
          processing_time_ms: { type: 'integer', minimum: 0, maximum: 600_000 },
          interrupted: {
            type: 'boolean',
            nullable: true,
            description: 'An agent turn cut short by caller speech (barge-in); default false',
          },
          start_offset_ms: {
            type: 'integer',
            minimum: 0,
            maximum: 604_800_000,
            nullable: true,
            description: "Start of the turn in ms after the call's start_time",
          },
        },
      },
    },
    sip_trace: { type: 'string', nullable: true, description: 'At most 64 KiB' },
    ...SIGNALLING_PROPERTIES,
  },
};

export const INGEST_BODY_SCHEMA = recordListSchema(
  'calls',
  CALL_RECORD,
  'An array of call records or {"calls": [...]} (application/x-ndjson: one record a line). Up to 10,000 records or 16 MiB.',
);

/** NDJSON is text to a JSON Schema: each line is one record of the JSON body's shape. */
export const INGEST_NDJSON_SCHEMA = {
  type: 'string',
  description:
    'Newline-delimited JSON (application/x-ndjson): one call record a line, each an object of the shape of ' +
    "the application/json body's array items. Up to 10,000 records or 16 MiB; a bad line is rejected on its own.",
  example:
    '{"id":"call_1","trunk_id":"conn_1","from":"+14155550100","to":"+14155550199","status":"connected","start_time":"2026-11-21T10:00:00.000Z"}\n',
};
