import {
  ALAW_SILENCE,
  MULAW_SILENCE,
  alawDecode,
  alawEncode,
  alawToMulaw,
  codecUsedName,
  g711PayloadType,
  mulawDecode,
  mulawEncode,
  mulawToAlaw,
} from '../../../media-gateway/src/media';

describe('G.711 tables', () => {
  it('decodes the silence code words to zero and the extremes to ±32124 (mu-law) / ±32256 (A-law)', () => {
    const out = new Int16Array(4);
    mulawDecode(Uint8Array.of(MULAW_SILENCE, 0x7f, 0x00, 0x80), out);
    expect(Array.from(out)).toEqual([0, 0, -32124, 32124]);
    alawDecode(Uint8Array.of(0x2a, 0xaa), out);
    expect(Array.from(out.subarray(0, 2))).toEqual([-32256, 32256]);
    alawDecode(Uint8Array.of(ALAW_SILENCE), out);
    expect(out[0]).toBe(8);
  });

  it('round-trips every code word through decode and encode (mu-law: 0x7F and 0xFF are both zero)', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const linear = new Int16Array(256);
    const back = new Uint8Array(256);
    mulawEncode(mulawDecode(all, linear), back);
    all.forEach((code) => expect(back[code]).toBe(code === 0x7f ? 0xff : code));
    alawEncode(alawDecode(all, linear), back);
    all.forEach((code) => expect(back[code]).toBe(code));
  });

  it('encodes within the quantisation step of each segment (error under 1/16 of the magnitude + 16)', () => {
    const samples = Int16Array.from({ length: 2001 }, (_, i) => Math.round(-32000 + i * 32));
    const codes = new Uint8Array(samples.length);
    const back = new Int16Array(samples.length);
    for (const [encode, decode] of [
      [mulawEncode, mulawDecode],
      [alawEncode, alawDecode],
    ] as const) {
      decode(encode(samples, codes), back);
      samples.forEach((s, i) => expect(Math.abs(back[i] - s)).toBeLessThanOrEqual(Math.abs(s) / 16 + 16));
    }
  });

  it('transcodes A-law to mu-law and back to the same level', () => {
    const tone = Int16Array.from({ length: 160 }, (_, i) => Math.round(10000 * Math.sin(i / 3)));
    const alaw = alawEncode(tone, new Uint8Array(160));
    const mulaw = alawToMulaw(alaw, new Uint8Array(160));
    const viaMulaw = mulawDecode(mulaw, new Int16Array(160));
    const again = alawDecode(mulawToAlaw(mulaw, new Uint8Array(160)), new Int16Array(160));
    tone.forEach((s, i) => {
      expect(Math.abs(viaMulaw[i] - s)).toBeLessThanOrEqual(Math.abs(s) / 8 + 32);
      expect(Math.abs(again[i] - s)).toBeLessThanOrEqual(Math.abs(s) / 8 + 32);
    });
  });

  it('names the codec as call records do and gives the static payload types of RFC 3551', () => {
    expect([codecUsedName('PCMU'), codecUsedName('PCMA')]).toEqual(['G711u', 'G711a']);
    expect([g711PayloadType('PCMU'), g711PayloadType('PCMA')]).toEqual([0, 8]);
  });
});
