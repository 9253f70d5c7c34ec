// Recordings long enough to adapt a model from (an adaptation needs 60 s of aligned speech): each is
// one TIMIT speaker's ten utterances of the shared eval set, joined by ffmpeg at test time into one WAV
// with their transcripts joined in the same order (never committed; throws when the set is absent).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ffmpegPath } from '@tazamun/aligner/audio';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';

/** Three speakers (one per dialect region): about 87 s of speech together. */
export const CORPUS_SPEAKERS = ['dr1-fvmh0', 'dr2-marc0', 'dr4-falr0'] as const;
/** A speaker kept apart from the corpus, for the uploads aligned with the adapted model. */
export const HELD_OUT_SPEAKER = 'dr3-madc0';

export interface SpeakerRecording {
  speaker: string;
  wav: string;
  text: string;
  /** seconds */
  duration: number;
  /** the utterances' words with their reference times in the joined recording */
  words: { w: string; start: number; end: number }[];
}

/** The speaker's utterances joined into `dir/<speaker>.wav`. */
export function speakerRecording(dir: string, speaker: string): SpeakerRecording {
  const set = join(evalDir(), 'timit-dev');
  if (!existsSync(set)) throw new Error(`missing test audio ${set}: the shared eval set must be present`);
  const refs = readdirSync(set)
    .filter((f) => f.startsWith(`${speaker}_`) && f.endsWith('.json'))
    .sort()
    .map(
      (f) =>
        JSON.parse(readFileSync(join(set, f), 'utf8')) as {
          audio: string;
          text: string;
          duration: number;
          words: { w: string; start: number; end: number }[];
        },
    );
  if (refs.length === 0) throw new Error(`no utterance of ${speaker} in ${set}`);
  const wav = join(dir, `${speaker}.wav`);
  execFileSync(
    ffmpegPath(),
    [
      '-nostdin',
      '-v',
      'error',
      '-y',
      ...refs.flatMap((r) => ['-i', join(set, r.audio)]),
      '-filter_complex',
      `${refs.map((_, i) => `[${i}:a]`).join('')}concat=n=${refs.length}:v=0:a=1`,
      '-ac',
      '1',
      '-ar',
      '16000',
      wav,
    ],
    { stdio: 'pipe' },
  );
  let offset = 0;
  const words: SpeakerRecording['words'] = [];
  for (const r of refs) {
    for (const w of r.words) words.push({ w: w.w, start: w.start + offset, end: w.end + offset });
    offset += r.duration;
  }
  return { speaker, wav, text: refs.map((r) => r.text).join(' '), duration: offset, words };
}
