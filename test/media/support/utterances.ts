import { mulawLevelDbfs } from '../../../media-gateway/src/media';

/**
 * The end of each caller utterance, by energy, as the mock providers' own VAD: speech starts after
 * two voiced 20 ms frames over `thresholdDbfs`, and ends after `silenceMs` of frames under it.
 */
export class UtteranceDetector {
  private voicedRun = 0;
  private inSpeech = false;
  private quietFrames = 0;
  private readonly silenceFrames: number;

  constructor(
    private readonly thresholdDbfs = -40,
    silenceMs = 500,
  ) {
    this.silenceFrames = Math.max(1, Math.round(silenceMs / 20));
  }

  /** One caller frame (µ-law, 20 ms): 'start' when speech begins, 'end' when an utterance ends. */
  frame(frame: Uint8Array): 'start' | 'end' | null {
    const voiced = mulawLevelDbfs(frame) >= this.thresholdDbfs;
    this.voicedRun = voiced ? this.voicedRun + 1 : 0;
    if (!this.inSpeech && this.voicedRun >= 2) {
      this.inSpeech = true;
      this.quietFrames = 0;
      return 'start';
    }
    if (!this.inSpeech) return null;
    this.quietFrames = voiced ? 0 : this.quietFrames + 1;
    if (this.quietFrames < this.silenceFrames) return null;
    this.inSpeech = false;
    return 'end';
  }
}
