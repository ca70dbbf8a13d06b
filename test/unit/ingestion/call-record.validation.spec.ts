import { codecGroup, latencyBin, talkOf } from '../../../src/ingestion/call-record';
import { validateCallRecord } from '../../../src/ingestion/call-record.validation';

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

describe('what a media gateway adds: MOS, turn flags, billable seconds', () => {
  const ok = (overrides: Record<string, unknown>) => {
    const verdict = validateCallRecord({ ...good(), ...overrides });
    if (!verdict.ok) throw new Error(verdict.message);
    return verdict.record;
  };
  const refused = (overrides: Record<string, unknown>) => {
    const verdict = validateCallRecord({ ...good(), ...overrides });
    return verdict.ok ? null : verdict.message;
  };

  it('keeps MOS to two decimals, at top level or under metrics, and refuses one outside 1-4.5', () => {
    expect(ok({ mos: 4.256 }).mos).toBe(4.26);
    expect(ok({ metrics: { mos: 1 } }).mos).toBe(1);
    expect(ok({}).mos).toBeNull();
    expect(refused({ mos: 4.51 })).toMatch(/mos/);
    expect(refused({ mos: 0.99 })).toMatch(/mos/);
    expect(refused({ mos: '4' })).toMatch(/mos/);
  });

  it('defaults a turn to not interrupted and no offset, and takes both when given', () => {
    const turn = { turn_number: 1, speaker: 'agent', duration_ms: 900 };
    expect(ok({ turns: [turn] }).turns).toEqual([
      { ...turn, processing_time_ms: 0, interrupted: false, start_offset_ms: null },
    ]);
    expect(ok({ turns: [{ ...turn, interrupted: true, start_offset_ms: 2500 }] }).turns[0]).toMatchObject({
      interrupted: true,
      start_offset_ms: 2500,
    });
    expect(refused({ turns: [{ ...turn, interrupted: 1 }] })).toMatch(/turns\[0\]\.interrupted/);
    expect(refused({ turns: [{ ...turn, start_offset_ms: 1.5 }] })).toMatch(/turns\[0\]\.start_offset_ms/);
  });

  it('derives billable seconds from the answer, and checks the ones a gateway states', () => {
    // 90 s in all, answered 10.4 s in: 80 billable (floored).
    expect(ok({ answered_at: '2026-11-21T10:00:10.400Z' })).toMatchObject({
      duration_seconds: 90,
      billable_seconds: 80,
    });
    expect(ok({})).toMatchObject({ answered: true, billable_seconds: 90 });
    expect(ok({ status: 'failed' })).toMatchObject({ answered: false, billable_seconds: 0 });
    expect(ok({ status: undefined, sip_code: 487 })).toMatchObject({ status: 'disconnected', billable_seconds: 0 });
    expect(ok({ billable_seconds: 61 }).billable_seconds).toBe(61);
    expect(refused({ billable_seconds: 91 })).toMatch(/more than duration_seconds/);
    expect(refused({ status: 'failed', billable_seconds: 3 })).toMatch(/never answered/);
    expect(ok({ status: 'failed', billable_seconds: 0 }).billable_seconds).toBe(0);
  });
});

describe('talkOf', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 21, 10, 0, s));
  const base = {
    status: 'connected' as const,
    duration_seconds: 60,
    end_time: at(60),
    answered_at: null,
    sip_code: null,
  };

  it.each([
    ['answered, from the times', { answered_at: at(12) }, true, 48],
    ['answered at the very end', { answered_at: at(60) }, true, 0],
    ['no signalling times: the whole duration', {}, true, 60],
    ['a final 200 without an answer time', { sip_code: 200 }, true, 60],
    ['cancelled while ringing (487)', { status: 'disconnected', sip_code: 487 }, false, 0],
    ['failed', { status: 'failed' }, false, 0],
    ['an answer time wins over a failing code', { sip_code: 503, answered_at: at(30) }, true, 30],
    ['no end yet: the duration', { answered_at: at(5), end_time: null, duration_seconds: 0 }, true, 0],
    ['never more than the stated duration', { answered_at: at(1), duration_seconds: 20 }, true, 20],
  ] as const)('%s', (_label, patch, answered, billable) => {
    expect(talkOf({ ...base, ...patch })).toEqual({ answered, billable_seconds: billable });
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
