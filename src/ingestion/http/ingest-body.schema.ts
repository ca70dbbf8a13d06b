/**
 * The published request body of POST /v1/ingest/calls (decisions.md's ingestion rules), as the
 * OpenAPI schema: records are validated one by one by call-record.validation.ts, not by a DTO,
 * so that one bad record is rejected on its own instead of failing the batch.
 */
const integer = (maximum: number) => ({ type: 'integer', minimum: 0, maximum, nullable: true });

const CALL_RECORD = {
  type: 'object',
  required: ['id', 'trunk_id', 'from', 'to', 'status', 'start_time'],
  properties: {
    id: { type: 'string', pattern: '^call_[A-Za-z0-9_-]{1,64}$', description: 'Re-sending an id replaces that call' },
    trunk_id: {
      type: 'string',
      pattern: '^conn_[A-Za-z0-9]{1,64}$',
      description: "A trunk of the key's account; the account comes from the trunk",
    },
    direction: { type: 'string', enum: ['inbound', 'outbound'], default: 'inbound' },
    from: { type: 'string', pattern: '^\\+[1-9]\\d{1,14}$' },
    to: { type: 'string', pattern: '^\\+[1-9]\\d{1,14}$' },
    status: { type: 'string', enum: ['connected', 'failed', 'disconnected'] },
    start_time: { type: 'string', format: 'date-time' },
    end_time: { type: 'string', format: 'date-time', nullable: true, description: 'Not before start_time' },
    duration_seconds: { ...integer(604_800), description: 'Derived from the times when absent' },
    carrier_lag_ms: integer(600_000),
    ai_latency_ms: integer(600_000),
    gateway_processing_ms: integer(600_000),
    packet_loss_percent: { type: 'number', minimum: 0, maximum: 100, nullable: true },
    jitter_ms: integer(600_000),
    codec_used: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,32}$', nullable: true },
    disconnect_reason: { type: 'string', pattern: '^[A-Za-z0-9._ -]{1,64}$', nullable: true },
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
        },
      },
    },
    sip_trace: { type: 'string', nullable: true, description: 'At most 64 KiB' },
  },
};

export const INGEST_BODY_SCHEMA = {
  description:
    'application/x-ndjson: one record a line; application/json: an array of records or {"calls": [...]}. Up to 10,000 records or 16 MiB.',
  oneOf: [
    { type: 'array', maxItems: 10_000, items: CALL_RECORD },
    {
      type: 'object',
      required: ['calls'],
      properties: { calls: { type: 'array', maxItems: 10_000, items: CALL_RECORD } },
    },
  ],
};
