import {
  delayImpairment,
  eModelR,
  effectiveEquipmentImpairment,
  estimateMos,
  mosFromR,
} from '../../../media-gateway/src/media';

describe('E-model (ITU-T G.107)', () => {
  it('gives R = 93.2 and MOS 4.41 for a call with no delay, jitter or loss', () => {
    expect(
      eModelR({ codec: 'PCMU', oneWayDelayMs: 0, jitterMs: 0, packetLossPercent: 0, packetizationMs: 0 }),
    ).toBeCloseTo(93.2, 5);
    expect(mosFromR(93.2)).toBeCloseTo(4.41, 2);
  });

  // Idd = 25{(1+X^6)^(1/6) − 3(1+(X/3)^6)^(1/6) + 2}, X = log2(Ta/100): X=1 → 3.04, X=2 → 24.07.
  it('has no delay impairment up to 100 ms and the G.107 curve beyond (Idd(200) ≈ 3.04, Idd(400) ≈ 24.07)', () => {
    expect(delayImpairment(100)).toBe(0);
    expect(delayImpairment(200)).toBeCloseTo(3.04, 2);
    expect(delayImpairment(400)).toBeCloseTo(24.07, 2);
  });

  it('applies G.711 loss robustness from G.113 Appendix I: 2 % random loss costs 30.2 (no PLC) or 6.8 (PLC)', () => {
    expect(effectiveEquipmentImpairment(0, 4.3, 2)).toBeCloseTo(30.2, 1);
    expect(effectiveEquipmentImpairment(0, 25.1, 2)).toBeCloseTo(7.0, 1);
  });

  it('lowers the MOS as loss, jitter and delay grow, within 1-4.5', () => {
    const base = { codec: 'PCMA' as const, oneWayDelayMs: 20, jitterMs: 2, packetLossPercent: 0 };
    const clean = estimateMos(base);
    const lossy = estimateMos({ ...base, packetLossPercent: 5 });
    const late = estimateMos({ ...base, oneWayDelayMs: 300, jitterMs: 40 });
    expect(clean).toBeGreaterThan(4.3);
    expect(lossy).toBeLessThan(clean);
    expect(late).toBeLessThan(clean);
    expect(mosFromR(-5)).toBe(1);
    expect(mosFromR(120)).toBe(4.5);
  });
});
