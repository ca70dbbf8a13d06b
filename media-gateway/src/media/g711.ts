/**
 * G.711 (ITU-T G.711, 1988) mu-law and A-law by lookup tables built once at load, so the per-packet
 * path is one table read per sample and allocates nothing: callers pass the output buffer.
 * The encoders follow the reference segment algorithm of G.711 §2 / §3 (the same as the ITU-T
 * G.191 STL `g711.c`), decoding by table of every one of the 256 code words.
 */
export type G711Codec = 'PCMU' | 'PCMA';

/** The code word of digital silence (0 linear): mu-law 0xFF, A-law 0xD5. */
export const MULAW_SILENCE = 0xff;
export const ALAW_SILENCE = 0xd5;

const BIAS = 0x84;
const CLIP = 32635;

function encodeMulawSample(sample: number): number {
  let s = sample;
  const sign = s < 0 ? 0x80 : 0;
  if (s < 0) s = -s;
  if (s > CLIP) s = CLIP;
  s += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

function decodeMulawByte(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = ((((u & 0x0f) << 3) + BIAS) << exponent) - BIAS;
  return u & 0x80 ? -magnitude : magnitude;
}

function encodeAlawSample(sample: number): number {
  let s = sample;
  let sign = 0x80;
  if (s < 0) {
    sign = 0;
    s = -s - 1;
  }
  if (s > 32767) s = 32767;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = exponent === 0 ? (s >> 4) & 0x0f : (s >> (exponent + 3)) & 0x0f;
  return ((sign | (exponent << 4) | mantissa) ^ 0x55) & 0xff;
}

function decodeAlawByte(byte: number): number {
  const a = byte ^ 0x55;
  const exponent = (a >> 4) & 0x07;
  const mantissa = a & 0x0f;
  let magnitude = exponent === 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1);
  if (magnitude > 32767) magnitude = 32767;
  return a & 0x80 ? magnitude : -magnitude;
}

const MULAW_TO_LINEAR = new Int16Array(256);
const ALAW_TO_LINEAR = new Int16Array(256);
const MULAW_TO_ALAW = new Uint8Array(256);
const ALAW_TO_MULAW = new Uint8Array(256);
// 14-bit index (sample >> 2): both laws quantise at least 4 linear steps apart, so this keeps them exact enough
// while the table stays 16 KiB each.
const LINEAR_TO_MULAW = new Uint8Array(16384);
const LINEAR_TO_ALAW = new Uint8Array(16384);

for (let i = 0; i < 256; i++) {
  MULAW_TO_LINEAR[i] = decodeMulawByte(i);
  ALAW_TO_LINEAR[i] = decodeAlawByte(i);
}
for (let i = 0; i < 16384; i++) {
  const sample = (i << 2) - 32768 + 2;
  LINEAR_TO_MULAW[i] = encodeMulawSample(sample);
  LINEAR_TO_ALAW[i] = encodeAlawSample(sample);
}
for (let i = 0; i < 256; i++) {
  MULAW_TO_ALAW[i] = LINEAR_TO_ALAW[(MULAW_TO_LINEAR[i] + 32768) >> 2];
  ALAW_TO_MULAW[i] = LINEAR_TO_MULAW[(ALAW_TO_LINEAR[i] + 32768) >> 2];
}

/** Decodes mu-law bytes into `out` (length ≥ input length); returns `out`. */
export function mulawDecode(input: Uint8Array, out: Int16Array): Int16Array {
  for (let i = 0; i < input.length; i++) out[i] = MULAW_TO_LINEAR[input[i]];
  return out;
}

/** Encodes 16-bit linear samples into `out` (length ≥ input length); returns `out`. */
export function mulawEncode(input: Int16Array, out: Uint8Array): Uint8Array {
  for (let i = 0; i < input.length; i++) out[i] = LINEAR_TO_MULAW[(input[i] + 32768) >> 2];
  return out;
}

export function alawDecode(input: Uint8Array, out: Int16Array): Int16Array {
  for (let i = 0; i < input.length; i++) out[i] = ALAW_TO_LINEAR[input[i]];
  return out;
}

export function alawEncode(input: Int16Array, out: Uint8Array): Uint8Array {
  for (let i = 0; i < input.length; i++) out[i] = LINEAR_TO_ALAW[(input[i] + 32768) >> 2];
  return out;
}

/** A-law bytes → mu-law bytes through one 256-entry table (the agent speaks mu-law; a PCMA carrier does not). */
export function alawToMulaw(input: Uint8Array, out: Uint8Array): Uint8Array {
  for (let i = 0; i < input.length; i++) out[i] = ALAW_TO_MULAW[input[i]];
  return out;
}

export function mulawToAlaw(input: Uint8Array, out: Uint8Array): Uint8Array {
  for (let i = 0; i < input.length; i++) out[i] = MULAW_TO_ALAW[input[i]];
  return out;
}

/** Linear value of one code word, for energy measures that skip the decode buffer. */
export function mulawToLinear(byte: number): number {
  return MULAW_TO_LINEAR[byte & 0xff];
}

export function alawToLinear(byte: number): number {
  return ALAW_TO_LINEAR[byte & 0xff];
}

/** The RTP static payload type of a G.711 codec (RFC 3551 §6, table 4). */
export function g711PayloadType(codec: G711Codec): number {
  return codec === 'PCMU' ? 0 : 8;
}

/** The call record's `codec_used` spelling (api.md shows `G711u`). */
export function codecUsedName(codec: G711Codec): string {
  return codec === 'PCMU' ? 'G711u' : 'G711a';
}
