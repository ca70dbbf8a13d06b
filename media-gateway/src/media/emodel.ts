/**
 * ITU-T G.107 (06/2015) E-model, reduced to what a gateway measures: one-way delay, jitter, packet
 * loss and codec. Every other parameter keeps its G.107 default (Table 3), for which Ro − Is = 93.2
 * and the echo terms Idte and Idle are negligible (TELR 65 dB, WEPL 110 dB), so
 *   R = 93.2 − Idd − Ie,eff + A  (§7.1, with A = 0: no advantage factor for a fixed line).
 */
import { G711Codec } from './g711';

export interface EModelInput {
  codec: G711Codec;
  /** Mean one-way transmission delay Ta, ms (network; half the RTCP round trip when known). */
  oneWayDelayMs: number;
  /** RFC 3550 interarrival jitter, ms. A jitter buffer of twice it adds to the delay. */
  jitterMs: number;
  /** Random packet loss Ppl, percent. */
  packetLossPercent: number;
  /** Packetization delay, ms. Default 20 (one G.711 frame). */
  packetizationMs?: number;
  /** Whether the listener conceals loss (G.711 Appendix I PLC). Default false: the gateway conceals nothing. */
  packetLossConcealment?: boolean;
}

/**
 * Equipment impairment Ie and packet-loss robustness Bpl of G.711, from ITU-T G.113 Appendix I
 * (Table I.1 and I.3): Ie = 0; Bpl = 4.3 without PLC, 25.1 with the PLC of G.711 Appendix I.
 */
export const G711_IMPAIRMENT = { ie: 0, bplWithoutPlc: 4.3, bplWithPlc: 25.1 } as const;

const RO_MINUS_IS = 93.2;

/** Idd, the impairment of absolute delay Ta (G.107 §7.4, with the default delay sensitivity mT = 100 ms, sT = 1). */
export function delayImpairment(taMs: number): number {
  if (taMs <= 100) return 0;
  const x = Math.log(taMs / 100) / Math.log(2);
  return 25 * (Math.pow(1 + Math.pow(x, 6), 1 / 6) - 3 * Math.pow(1 + Math.pow(x / 3, 6), 1 / 6) + 2);
}

/** Ie,eff = Ie + (95 − Ie) · Ppl / (Ppl / BurstR + Bpl) (G.107 §7.5), random loss (BurstR = 1). */
export function effectiveEquipmentImpairment(ie: number, bpl: number, lossPercent: number, burstR = 1): number {
  const ppl = Math.max(0, Math.min(100, lossPercent));
  return ie + ((95 - ie) * ppl) / (ppl / burstR + bpl);
}

/** The transmission rating factor R of the input. */
export function eModelR(input: EModelInput): number {
  const ta = Math.max(0, input.oneWayDelayMs) + Math.max(0, input.jitterMs) * 2 + (input.packetizationMs ?? 20);
  const bpl = input.packetLossConcealment ? G711_IMPAIRMENT.bplWithPlc : G711_IMPAIRMENT.bplWithoutPlc;
  const ieEff = effectiveEquipmentImpairment(G711_IMPAIRMENT.ie, bpl, input.packetLossPercent);
  return RO_MINUS_IS - delayImpairment(ta) - ieEff;
}

/** MOS-CQE from R (G.107 Annex B, eq. B-4). */
export function mosFromR(r: number): number {
  if (r <= 0) return 1;
  if (r >= 100) return 4.5;
  return 1 + 0.035 * r + r * (r - 60) * (100 - r) * 7e-6;
}

/** MOS of a call, rounded to two decimals (an additive per-call value the overview can average). */
export function estimateMos(input: EModelInput): number {
  return Math.round(mosFromR(eModelR(input)) * 100) / 100;
}
