// Audio analysis for the verdict: where the file sounds like speech, from the 10 ms frame levels alone
// (no model). Speech rises and falls by syllable well above the file's quietest tenth; digital silence
// never rises, and a steady sound (a test tone, a hum, a fan) stays at one level and one timbre, so
// neither counts.

/** A frame is active this many dB above the quietest tenth of the file... */
export const ACTIVE_ABOVE_FLOOR_DB = 15;
/** ...and above this absolute level (dBFS). */
export const ACTIVE_MIN_DBFS = -60;
/**
 * Median frame-to-frame level change (dB) of the active frames below which the sound is steady, not
 * speech. Speech on the dev sets: 1.5-3 dB; a sine tone after its onset: 0.0 dB.
 */
export const STEADY_DELTA_DB = 0.5;
/**
 * ...and the spread (10th to 90th percentile) of the active frames' spectral tilt below which it is
 * steady. A tone: 0.3 dB; white noise: 1.0; a formant synthesizer's speech, whose vowels hold their level
 * (median level change 0.3-0.45 dB), 2.2-5.3; recorded speech 3.5-16.
 */
export const STEADY_TILT_DB = 2;
/** A run of speech outside every word shorter than this is a breath or a click, not a word. */
export const MIN_UNTRANSCRIBED_RUN = 0.25;
/** Margin around an aligned word inside which speech is taken as the word's own (edge errors). */
const WORD_MARGIN = 0.1;
const FRAME = 0.01;

export interface SpeechAnalysis {
  /** per 10 ms frame: 1 when it sounds like speech */
  frames: Uint8Array;
  speechSeconds: number;
  /** active frames that stayed at one level: a steady sound rather than speech */
  steady: boolean;
}

export function analyseSpeech(frameDb: Float32Array, frameTiltDb?: Float32Array): SpeechAnalysis {
  const frames = new Uint8Array(frameDb.length);
  if (frameDb.length === 0) return { frames, speechSeconds: 0, steady: false };
  const sorted = Float32Array.from(frameDb).sort();
  const floor = sorted[Math.floor(sorted.length * 0.1)]!;
  const thr = Math.max(floor + ACTIVE_ABOVE_FLOOR_DB, ACTIVE_MIN_DBFS);
  const deltas: number[] = [];
  for (let f = 0; f < frameDb.length; f++) {
    if (frameDb[f]! < thr) continue;
    frames[f] = 1;
    if (f > 0 && frameDb[f - 1]! >= thr) deltas.push(Math.abs(frameDb[f]! - frameDb[f - 1]!));
  }
  deltas.sort((a, b) => a - b);
  // Loud throughout but never rising above its own floor (a tone from the first sample) is steady too.
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const flatAndLoud = deltas.length === 0 && median > ACTIVE_MIN_DBFS;
  const steady =
    flatAndLoud ||
    (deltas.length > 10 &&
      deltas[Math.floor(deltas.length / 2)]! < STEADY_DELTA_DB &&
      (!frameTiltDb || tiltSpread(frameTiltDb, frames) < STEADY_TILT_DB));
  if (steady) frames.fill(0);
  let n = 0;
  for (const v of frames) n += v;
  return { frames, speechSeconds: round3(n * FRAME), steady };
}

/** 90th minus 10th percentile of the tilt of the active frames. */
function tiltSpread(tilt: Float32Array, active: Uint8Array): number {
  const xs: number[] = [];
  for (let f = 0; f < active.length && f < tilt.length; f++) if (active[f]) xs.push(tilt[f]!);
  if (xs.length < 10) return 0;
  xs.sort((a, b) => a - b);
  return xs[Math.floor(0.9 * xs.length)]! - xs[Math.floor(0.1 * xs.length)]!;
}

/** Seconds of speech outside every aligned word, counting only runs of MIN_UNTRANSCRIBED_RUN or more. */
export function untranscribedSpeech(
  speech: SpeechAnalysis,
  words: { start: number | null; end: number | null }[],
): number {
  const covered = new Uint8Array(speech.frames.length);
  for (const w of words) {
    if (w.start === null || w.end === null) continue;
    const a = Math.max(0, Math.floor((w.start - WORD_MARGIN) / FRAME));
    const b = Math.min(covered.length, Math.ceil((w.end + WORD_MARGIN) / FRAME));
    covered.fill(1, a, b);
  }
  let total = 0;
  let run = 0;
  const flush = () => {
    if (run * FRAME >= MIN_UNTRANSCRIBED_RUN) total += run;
    run = 0;
  };
  for (let f = 0; f < speech.frames.length; f++) {
    if (speech.frames[f] && !covered[f]) run++;
    else flush();
  }
  flush();
  return round3(total * FRAME);
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
