import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Speech made at test time: espeak-ng says each sentence, sox turns it into 8 kHz mono mu-law
 * WAV (what SIPp's rtp_stream plays) with `gapS` seconds of silence after each. Returns the file
 * and where each utterance lies (seconds), as sox measured it.
 */
export function makeSpeech(
  dir: string,
  name: string,
  sentences: string[],
  gapsS: number[],
): { wav: string; durationS: number } {
  const parts: string[] = [];
  sentences.forEach((sentence, i) => {
    const raw = join(dir, `${name}-${i}-raw.wav`);
    const said = join(dir, `${name}-${i}.wav`);
    const silence = join(dir, `${name}-${i}-gap.wav`);
    execFileSync('espeak-ng', ['-s', '150', '-w', raw, sentence]);
    execFileSync('sox', [raw, '-r', '8000', '-c', '1', '-e', 'mu-law', said]);
    execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-e', 'mu-law', silence, 'trim', '0', String(gapsS[i] ?? 1)]);
    parts.push(said, silence);
  });
  const wav = join(dir, `${name}.wav`);
  execFileSync('sox', [...parts, wav]);
  const durationS = Number(execFileSync('soxi', ['-D', wav], { encoding: 'utf8' }).trim());
  return { wav, durationS };
}
