import { e164Of } from '../../../src/calls/ingestion/caller';
import { validateCallRecord } from '../../../src/calls/ingestion/call-record.validation';
import { rowOf } from '../../../src/calls/ingestion/call-record.row';
import { classify } from '../../../src/shared/failure-taxonomy';

const gatewayRecord = (overrides: Record<string, unknown> = {}) => ({
  id: 'call_sip1',
  trunk_id: 'conn_xyz',
  from: 'anonymous',
  to: '+442071838750',
  start_time: '2026-11-21T10:00:00.123Z',
  invite_at: '2026-11-21T10:00:00.123Z',
  ringing_at: '2026-11-21T10:00:00.456Z',
  answered_at: '2026-11-21T10:00:01.789Z',
  end_time: '2026-11-21T10:00:31.790Z',
  sip_code: 200,
  sip_reason: 'OK',
  disconnect_reason: 'caller_hangup',
  source_address: '127.0.0.1',
  ...overrides,
});

describe('callers that are not E.164 numbers', () => {
  it.each([
    ['+14155550100', '+14155550100'],
    ['sip:+14155550100@carrier.example;user=phone', '+14155550100'],
    ['tel:+1-415-555-0100', '+14155550100'],
    ['anonymous', null],
    ['Restricted', null],
    ['4155550100', null],
    ['alice', null],
  ])('keeps %s as given, with E.164 form %s', (caller, e164) => {
    expect(e164Of(caller)).toBe(e164);
    const verdict = validateCallRecord(gatewayRecord({ from: caller }));
    expect(verdict.ok && verdict.record.from).toBe(caller);
  });

  it.each([['"Bob" <sip:bob@x>'], ['a b'], ['x'.repeat(129)], [''], ['back\\slash']])(
    'refuses %s, which would need escaping',
    (caller) => {
      const verdict = validateCallRecord(gatewayRecord({ from: caller }));
      expect(verdict.ok).toBe(false);
    },
  );

  it('stores the E.164 form beside the caller as given', () => {
    const verdict = validateCallRecord(gatewayRecord({ from: 'sip:+14155550100@carrier.example' }));
    if (!verdict.ok) throw new Error(verdict.message);
    const row = rowOf({ ...verdict.record, account_id: 'acct_1', provider: 'custom' }, 1, new Date());
    expect(row).toMatchObject({
      from_number: 'sip:+14155550100@carrier.example',
      from_e164: '+14155550100',
      to_e164: '+442071838750',
    });
  });
});

describe('gateway signalling on call records', () => {
  it('keeps sub-second times, derives status and class from the SIP code', () => {
    const verdict = validateCallRecord(gatewayRecord());
    if (!verdict.ok) throw new Error(verdict.message);
    expect(verdict.record.status).toBe('connected');
    expect(verdict.record.signalling).toMatchObject({
      sip_code: 200,
      failure_class: 'normal',
      retryable: false,
      source_address: '127.0.0.1',
    });
    expect(verdict.record.signalling?.answered_at?.toISOString()).toBe('2026-11-21T10:00:01.789Z');
    const row = rowOf({ ...verdict.record, account_id: 'acct_1', provider: 'custom' }, 1, new Date());
    expect(row).toMatchObject({
      start_time: '2026-11-21 10:00:00.123',
      ringing_at: '2026-11-21 10:00:00.456',
      answered_at: '2026-11-21 10:00:01.789',
      end_time: '2026-11-21 10:00:31.790',
      duration_seconds: 31,
    });
  });

  it('takes a media-less record: latency, quality and turns stay unknown', () => {
    const verdict = validateCallRecord(gatewayRecord());
    expect(verdict.ok && verdict.record).toMatchObject({
      carrier_lag_ms: null,
      ai_latency_ms: null,
      packet_loss_percent: null,
      codec_used: null,
      turns: [],
    });
  });

  it('keeps a status and class the record states itself', () => {
    const verdict = validateCallRecord(
      gatewayRecord({ status: 'disconnected', failure_class: 'agent_error', retryable: true }),
    );
    expect(verdict.ok && verdict.record.status).toBe('disconnected');
    expect(verdict.ok && verdict.record.signalling?.failure_class).toBe('agent_error');
  });

  it.each([
    ['status and sip_code both missing', { sip_code: undefined }, 'missing_required_field'],
    ['a SIP code out of range', { sip_code: 99 }, 'invalid_field'],
    ['ringing before the INVITE', { ringing_at: '2026-11-21T10:00:00.000Z' }, 'invalid_field'],
    ['an answer after the end', { answered_at: '2026-11-21T10:01:00.000Z' }, 'invalid_field'],
    ['an unknown class', { failure_class: 'cosmic_rays' }, 'invalid_field'],
    ['a host name as source', { source_address: 'carrier.example' }, 'invalid_field'],
    ['a reason phrase with a newline', { sip_reason: 'OK\r\nX-Injected: 1' }, 'invalid_field'],
  ])('rejects %s', (_name, patch, code) => {
    const verdict = validateCallRecord(gatewayRecord(patch));
    expect(!verdict.ok && verdict.code).toBe(code);
  });
});

describe('the failure taxonomy (the table of docs/sip-gateway.md)', () => {
  const of = (
    sipCode: number,
    answered = false,
    disconnectReason: string | null = null,
    q850Cause: number | null = null,
  ) => classify({ sipCode, answered, disconnectReason, q850Cause });

  it.each([
    ['a normal hang-up', of(200, true, 'agent_hangup'), 'connected', 'normal', false],
    ['a caller cancel', of(487), 'disconnected', 'normal', false],
    ['a busy agent', of(486), 'failed', 'capacity', true],
    ['an agent that never answers', of(408), 'failed', 'agent_timeout', true],
    ['a failing agent', of(500), 'failed', 'agent_error', true],
    ['an unreachable agent', of(502), 'failed', 'network', true],
    ['a wrong password', of(401), 'failed', 'auth', false],
    ['a refused INVITE (inactive trunk, address)', of(403), 'failed', 'routing', false],
    ['an unknown user', of(404), 'failed', 'routing', false],
    ['a codec mismatch', of(488), 'failed', 'carrier', false],
    ['a call dropped by the gateway timer', of(200, true, 'dialog_timeout'), 'disconnected', 'network', true],
    ['a call ended with Q.850 cause 41', of(200, true, null, 41), 'disconnected', 'network', true],
    ['a call ended with Q.850 cause 16', of(200, true, null, 16), 'connected', 'normal', false],
    [
      'an agent that failed mid-call (media gateway BYE)',
      of(200, true, 'agent_error'),
      'disconnected',
      'agent_error',
      true,
    ],
  ])('maps %s', (_name, classified, status, failureClass, retryable) => {
    expect(classified).toEqual({ status, failure_class: failureClass, retryable });
  });
});
