import { MULAW_SILENCE } from '../media';

/**
 * Cuts agent audio of any chunk size into fixed frames (160 bytes = 20 ms of mu-law) for the pacer.
 * Whole frames inside a chunk are passed as views (no copy); only a tail waits in one preallocated buffer.
 */
export class AudioReframer {
  private readonly partial: Uint8Array;
  private filled = 0;

  constructor(
    private readonly frameBytes: number,
    private readonly onFrame: (frame: Uint8Array) => void,
  ) {
    this.partial = new Uint8Array(frameBytes);
  }

  /** Returns the number of frames emitted. */
  push(chunk: Uint8Array): number {
    let offset = 0;
    let frames = 0;
    if (this.filled > 0) {
      const take = Math.min(this.frameBytes - this.filled, chunk.length);
      this.partial.set(chunk.subarray(0, take), this.filled);
      this.filled += take;
      offset = take;
      if (this.filled < this.frameBytes) return 0;
      this.onFrame(this.partial);
      this.filled = 0;
      frames++;
    }
    for (; offset + this.frameBytes <= chunk.length; offset += this.frameBytes) {
      this.onFrame(chunk.subarray(offset, offset + this.frameBytes));
      frames++;
    }
    if (offset < chunk.length) {
      this.partial.set(chunk.subarray(offset), 0);
      this.filled = chunk.length - offset;
    }
    return frames;
  }

  /** Emits a waiting tail padded with silence (before a mark, so the mark follows all of its audio). */
  flushPadded(): number {
    if (this.filled === 0) return 0;
    this.partial.fill(MULAW_SILENCE, this.filled);
    this.filled = 0;
    this.onFrame(this.partial);
    return 1;
  }

  reset(): void {
    this.filled = 0;
  }
}
