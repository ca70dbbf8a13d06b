import { AudioReframer } from '../../../media-gateway/src/agent/audio-reframer';

describe('audio reframer', () => {
  it('cuts chunks of any size into 160-byte frames, keeping the byte order across chunks', () => {
    const frames: number[][] = [];
    const r = new AudioReframer(160, (f) => frames.push(Array.from(f)));
    const bytes = Uint8Array.from({ length: 500 }, (_, i) => i % 251);
    expect(r.push(bytes.subarray(0, 100))).toBe(0);
    expect(r.push(bytes.subarray(100, 420))).toBe(2);
    expect(r.push(bytes.subarray(420))).toBe(1);
    expect(frames.flat()).toEqual(Array.from(bytes.subarray(0, 480)));
    expect(r.flushPadded()).toBe(1);
    expect(frames[3].slice(0, 20)).toEqual(Array.from(bytes.subarray(480)));
    expect(frames[3].slice(20).every((b) => b === 0xff)).toBe(true);
    expect(r.flushPadded()).toBe(0);
  });

  it('forgets a waiting tail on reset (clear)', () => {
    const frames: Uint8Array[] = [];
    const r = new AudioReframer(160, (f) => frames.push(Uint8Array.from(f)));
    r.push(new Uint8Array(100).fill(1));
    r.reset();
    r.push(new Uint8Array(160).fill(2));
    expect(frames).toHaveLength(1);
    expect(frames[0].every((b) => b === 2)).toBe(true);
  });
});
