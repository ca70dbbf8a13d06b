import { codecGroup, latencyBin } from '../../../src/calls/ingestion/call-record';
import { validateCallRecord } from '../../../src/calls/ingestion/call-record.validation';

const good = () => ({
  id: 'call_abc123',
  trunk_id: 'conn_xyz',
  from: '+14155550100',
  to: '+442071838750',
  status: 'connected',
  start_time: '2026-11-21T10:00:00.000Z',
  end_time: '2026-11-21T10:01:30.500Z',
  carrier_lag_ms: 40,
  ai_latency_ms: 500,
  gateway_processing_ms: 6,
});

describe('call record validation', () => {
  it('accepts a list-form record and derives duration from the times', () => {
    const verdict = validateCallRecord(good());
    expect(verdict.ok && verdict.record).toMatchObject({
      duration_seconds: 90,
      direction: 'inbound',
      turns: [],
      sip_trace: null,
    });
  });

  it('takes latency and quality from metrics (detail form)', () => {
    const { carrier_lag_ms: _c, ...rest } = good();
    const verdict = validateCallRecord({
      ...rest,
      metrics: { carrier_lag_ms: 12, jitter_ms: 4, codec_used: 'G722', packet_loss_percent: 0.25 },
    });
    expect(verdict.ok && verdict.record).toMatchObject({
      carrier_lag_ms: 12,
      jitter_ms: 4,
      codec_used: 'G722',
      packet_loss_percent: 0.25,
    });
  });

  it('ignores an account_id in the body', () => {
    expect(validateCallRecord({ ...good(), account_id: 'acct_other' }).ok).toBe(true);
  });

  it.each([
    ['id', { id: undefined }, 'missing_required_field'],
    ['trunk_id', { trunk_id: undefined }, 'missing_required_field'],
    ['status', { status: 'ringing' }, 'invalid_field'],
    ['from (a display name)', { from: '"Bob" <sip:bob@example.com>' }, 'invalid_field'],
    ['to (too long)', { to: '+1'.repeat(65) }, 'invalid_field'],
    ['start_time (no zone)', { start_time: '2026-11-21T10:00:00' }, 'invalid_field'],
    ['end before start', { end_time: '2026-11-21T09:00:00.000Z' }, 'invalid_field'],
    ['latency of a wrong type', { ai_latency_ms: '500' }, 'invalid_field'],
    ['negative latency', { carrier_lag_ms: -1 }, 'invalid_field'],
    ['packet loss over 100', { packet_loss_percent: 101 }, 'invalid_field'],
    ['huge sip_trace', { sip_trace: 'x'.repeat(70_000) }, 'too_large'],
    ['unknown field', { colour: 'red' }, 'invalid_field'],
    ['bad turn', { turns: [{ turn_number: 0, speaker: 'caller', duration_ms: 1 }] }, 'invalid_field'],
  ])('rejects %s with a reason', (_name, patch, code) => {
    const verdict = validateCallRecord({ ...good(), ...patch });
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) {
      expect(verdict.code).toBe(code);
      expect(verdict.message.length).toBeGreaterThan(5);
    }
  });

  it('rejects non-objects', () => {
    for (const value of [null, 42, 'call', [good()]]) expect(validateCallRecord(value).ok).toBe(false);
  });
});

describe('codec groups and latency bins', () => {
  it('groups codecs as decisions.md says', () => {
    expect(['G711u', 'G711a', 'PCMU', 'PCMA'].map(codecGroup)).toEqual(['G711', 'G711', 'G711', 'G711']);
    expect(['G722', 'G.722'].map(codecGroup)).toEqual(['G722', 'G722']);
    expect(codecGroup('opus')).toBe('OPUS');
    expect(codecGroup(null)).toBe('');
  });

  it('keeps latencies exact below 256 ms and within 1% above', () => {
    for (let ms = 0; ms < 256; ms++) expect(latencyBin(ms)).toBe(ms);
    for (let ms = 256; ms < 200_000; ms += 7) {
      const bin = latencyBin(ms);
      expect(bin).toBeLessThanOrEqual(ms);
      expect((ms - bin) / ms).toBeLessThan(0.01);
    }
  });
});
