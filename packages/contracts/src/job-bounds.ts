// What one alignment may cost, checked before any work is done: by the upload route (before the quota
// unit is taken), by the engine's align() and so by the CLI. The numbers live here once.
//
// Why these numbers: fast read speech runs at 3-4 words and 15-20 letters a second; fully vowelled
// Arabic and IPA carry a combining mark on most letters, so they can double the character count. A
// ceiling of 10 words and 60 characters a second is two to three times the fastest speech, and a fixed
// allowance lets a short clip still carry a title line. Beyond that the text cannot be in the audio, and
// its cost is real: 5 MB of text for a 3 s clip grew the server to 5 GB (issue 11).
import { errorMessage } from './errors.ts';
import type { ErrorCode } from './errors.ts';

export const JOB_BOUNDS = {
  maxWordsPerAudioSecond: 10,
  maxCharactersPerAudioSecond: 60,
  /** added to the per-second ceilings, so a 1 s clip may still hold a 50-word transcript */
  wordAllowance: 50,
  characterAllowance: 300,
  /** below this a file is not speech: a 3,644-byte WAV at 1 Hz claimed one hour of audio */
  minSampleRate: 8000,
  /** MAX_AUDIO_DURATION's default on the server: 3 h */
  defaultMaxAudioSeconds: 3 * 3600,
} as const;

export type JobBoundsCode = Extract<
  ErrorCode,
  'transcript_too_long' | 'audio_too_long' | 'audio_sample_rate_too_low'
>;

export interface JobBoundsViolation {
  code: JobBoundsCode;
  /** the catalogue message's placeholders */
  params: Record<string, string | number>;
}

export interface JobBoundsInput {
  /** the probed duration in seconds */
  durationSeconds: number;
  /** the source sample rate in Hz when known; a missing or 0 rate is not checked */
  sampleRate?: number | null;
  /** the transcript as the user sent it; omitted, only the audio is checked */
  text?: string;
  /** the duration ceiling (MAX_AUDIO_DURATION); null: none (the CLI on the user's own machine) */
  maxAudioSeconds?: number | null;
}

/** Most words and characters a transcript for `seconds` of audio may hold. */
export function transcriptCeiling(seconds: number): { words: number; characters: number } {
  const s = Math.max(0, seconds);
  return {
    words: Math.floor(JOB_BOUNDS.wordAllowance + JOB_BOUNDS.maxWordsPerAudioSecond * s),
    characters: Math.floor(JOB_BOUNDS.characterAllowance + JOB_BOUNDS.maxCharactersPerAudioSecond * s),
  };
}

const isSpace = (c: number): boolean =>
  c === 0x20 ||
  (c >= 0x09 && c <= 0x0d) ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;

/**
 * Words (runs between white space) and characters (code points that are not white space, so line
 * breaks and indentation cost nothing). Stops counting once either passed its limit: a 5 MB text is
 * not walked to the end to be refused.
 */
export function countTranscript(
  text: string,
  stopAbove: { words: number; characters: number } = { words: Infinity, characters: Infinity },
): { words: number; characters: number } {
  let words = 0;
  let characters = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      inWord = false;
      continue;
    }
    // the second half of a surrogate pair is the same code point
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const p = text.charCodeAt(i - 1);
      if (p >= 0xd800 && p <= 0xdbff) continue;
    }
    characters += 1;
    if (!inWord) {
      words += 1;
      inWord = true;
    }
    if (words > stopAbove.words || characters > stopAbove.characters) break;
  }
  return { words, characters };
}

const roundSeconds = (s: number): number => Math.round(s * 10) / 10;

/** Hours, minutes and seconds as `1:05:09` / `4:07`: the same in every interface language. */
export function clockDuration(seconds: number): string {
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The first bound the job breaks, or null. Audio first: a bad file makes the text check meaningless. */
export function checkJobBounds(input: JobBoundsInput): JobBoundsViolation | null {
  const { durationSeconds, sampleRate, text } = input;
  if (sampleRate && sampleRate < JOB_BOUNDS.minSampleRate)
    return {
      code: 'audio_sample_rate_too_low',
      params: { rate: sampleRate, min: JOB_BOUNDS.minSampleRate },
    };
  const max = input.maxAudioSeconds ?? null;
  if (max !== null && durationSeconds > max)
    return {
      code: 'audio_too_long',
      params: { duration: clockDuration(durationSeconds), max: clockDuration(max) },
    };
  if (text !== undefined) {
    const ceiling = transcriptCeiling(durationSeconds);
    const got = countTranscript(text, ceiling);
    if (got.words > ceiling.words || got.characters > ceiling.characters)
      return {
        code: 'transcript_too_long',
        params: {
          seconds: roundSeconds(durationSeconds),
          max_words: ceiling.words,
          max_characters: ceiling.characters,
        },
      };
  }
  return null;
}

/** A job refused by its bounds; `code` and `params` are the catalogue's. */
export class JobBoundsError extends Error {
  readonly code: JobBoundsCode;
  readonly params: Record<string, string | number>;
  constructor(violation: JobBoundsViolation) {
    // the English catalogue message: what a CLI user reads
    super(errorMessage(violation.code, 'en', violation.params));
    this.name = 'JobBoundsError';
    this.code = violation.code;
    this.params = violation.params;
  }
}

/** Throws a JobBoundsError for the first bound the job breaks. */
export function assertJobBounds(input: JobBoundsInput): void {
  const v = checkJobBounds(input);
  if (v) throw new JobBoundsError(v);
}
