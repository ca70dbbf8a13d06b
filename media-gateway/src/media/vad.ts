import { mulawToLinear } from './g711';

/** The trunk's `vad` object as the API stores it (names as OpenAI's server VAD names them). */
export interface TrunkVadSettings {
  threshold?: number;
  prefix_padding_ms?: number;
  silence_duration_ms?: number;
}

export interface VadConfig {
  /** 0-1: how loud a frame must be to count as speech (see `speechProbability`). */
  threshold: number;
  /** Audio before the detected start that belongs to the utterance, ms. */
  prefixPaddingMs: number;
  /** Silence that ends an utterance, ms. */
  silenceDurationMs: number;
}

/** The defaults of OpenAI's server VAD, whose parameter names the trunk's `vad` uses. */
export const VAD_DEFAULTS: Readonly<VadConfig> = { threshold: 0.5, prefixPaddingMs: 300, silenceDurationMs: 500 };
export const VAD_FRAME_MS = 20;

/** The trunk's settings with defaults for what it leaves out. */
export function resolveVad(vad?: TrunkVadSettings | null): VadConfig {
  return {
    threshold: vad?.threshold ?? VAD_DEFAULTS.threshold,
    prefixPaddingMs: vad?.prefix_padding_ms ?? VAD_DEFAULTS.prefixPaddingMs,
    silenceDurationMs: vad?.silence_duration_ms ?? VAD_DEFAULTS.silenceDurationMs,
  };
}

/** Level below which a frame is certainly not speech, and above which it certainly is, dBFS. */
export const VAD_FLOOR_DBFS = -60;
export const VAD_CEILING_DBFS = -20;

/**
 * An energy detector's "probability" of speech: the frame's RMS level mapped linearly from
 * −60 dBFS (0) to −20 dBFS (1). The default threshold 0.5 is then −40 dBFS: telephone speech sits
 * around −20 to −30 dBFS, line noise below −50.
 */
export function speechProbability(levelDbfs: number): number {
  const p = (levelDbfs - VAD_FLOOR_DBFS) / (VAD_CEILING_DBFS - VAD_FLOOR_DBFS);
  return p < 0 ? 0 : p > 1 ? 1 : p;
}

/** RMS level of a mu-law frame in dBFS (−Infinity for digital silence), without a decode buffer. */
export function mulawLevelDbfs(frame: Uint8Array): number {
  if (frame.length === 0) return -Infinity;
  let sum = 0;
  for (let i = 0; i < frame.length; i++) {
    const s = mulawToLinear(frame[i]);
    sum += s * s;
  }
  const rms = Math.sqrt(sum / frame.length);
  return rms === 0 ? -Infinity : 20 * Math.log10(rms / 32768);
}

export type VadEvent =
  | {
      type: 'speech_start';
      /** Start of the first voiced frame (monotonic ms). */
      atMs: number;
      /** `atMs` less the prefix padding, never before the previous utterance's end. */
      paddedStartMs: number;
    }
  | {
      type: 'speech_end';
      /** End of the last voiced frame: the end of caller speech that processing times count from. */
      atMs: number;
      /** When the silence window closed and the end became known. */
      detectedAtMs: number;
      /** atMs − start of the utterance. */
      durationMs: number;
    };

/** Two voiced frames in a row start speech: one click or pop is not an utterance. */
const START_FRAMES = 2;

/**
 * Energy VAD on 20 ms frames. Speech starts after START_FRAMES voiced frames in a row (the start is
 * dated at the first of them) and ends when `silenceDurationMs` passes without a voiced frame (the end
 * is dated at the last voiced frame). Frames are dated by the caller: `frameEndMs` is when the frame's
 * last sample was captured, in practice its arrival time on a monotonic clock.
 */
export class EnergyVad {
  private voicedRun = 0;
  private runStartMs = 0;
  private speaking = false;
  private speechStartMs = 0;
  private lastVoicedEndMs = 0;
  private previousEndMs = -Infinity;

  constructor(private readonly config: VadConfig = VAD_DEFAULTS) {}

  get inSpeech(): boolean {
    return this.speaking;
  }

  /** One 20 ms mu-law frame (160 bytes). */
  pushMulaw(frame: Uint8Array, frameEndMs: number): VadEvent | null {
    return this.pushLevel(mulawLevelDbfs(frame), frameEndMs, (frame.length / 8) | 0);
  }

  /** One frame by its level, for callers that measured it already. */
  pushLevel(levelDbfs: number, frameEndMs: number, frameMs = VAD_FRAME_MS): VadEvent | null {
    const voiced = speechProbability(levelDbfs) >= this.config.threshold && levelDbfs > -Infinity;
    const frameStartMs = frameEndMs - frameMs;
    if (voiced) {
      if (this.voicedRun === 0) this.runStartMs = frameStartMs;
      this.voicedRun++;
      this.lastVoicedEndMs = frameEndMs;
      if (!this.speaking && this.voicedRun >= START_FRAMES) {
        this.speaking = true;
        this.speechStartMs = this.runStartMs;
        const padded = Math.max(this.runStartMs - this.config.prefixPaddingMs, this.previousEndMs);
        return { type: 'speech_start', atMs: this.runStartMs, paddedStartMs: padded };
      }
      return null;
    }
    this.voicedRun = 0;
    if (this.speaking && frameEndMs - this.lastVoicedEndMs >= this.config.silenceDurationMs) {
      return this.end(frameEndMs);
    }
    return null;
  }

  /** Ends an utterance in progress (call end), dated at its last voiced frame. */
  flush(nowMs: number): VadEvent | null {
    return this.speaking ? this.end(nowMs) : null;
  }

  private end(detectedAtMs: number): VadEvent {
    this.speaking = false;
    this.previousEndMs = this.lastVoicedEndMs;
    return {
      type: 'speech_end',
      atMs: this.lastVoicedEndMs,
      detectedAtMs,
      durationMs: this.lastVoicedEndMs - this.speechStartMs,
    };
  }
}
