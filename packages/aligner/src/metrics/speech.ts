// Audio analysis for the verdict: where the file sounds like speech, from the 10 ms frame levels alone
// (no model). Speech rises and falls by syllable well above the quietest tenth of the minute around it;
// digital silence never rises, and a steady sound (a test tone, a hum, a fan) stays at one level and one
// timbre, so neither counts. The loud frames are the syllables' nuclei; the speech itself also holds their
// weaker edges and the short pauses between them, so its stretches (`regions`) are the loud runs widened over
// quieter neighbours and joined across short gaps. How much of the loud frames a codec keeps varies by
// a third (the same 4.3 s of read speech: 1.8 s of loud runs in an OGG copy, 2.6 s in an MP3 copy);
// the stretches hold still (4.3 s in both).

/** A frame is active this many dB above the quietest tenth of the minute around it (FLOOR_SPAN_SECONDS)... */
export const ACTIVE_ABOVE_FLOOR_DB = 15;
/** ...and above this absolute level (dBFS). */
export const ACTIVE_MIN_DBFS = -60;
/**
 * The floor is the quietest tenth of this many seconds around a frame (a recording up to this long has one
 * floor, its whole file's). A long recording's noise changes (another room, another microphone, a hoarse
 * speaker close to the microphone after a quiet studio): read against the quietest tenth of the whole
 * file, a noisy stretch after quiet ones rose 15 dB above it throughout and was all speech
 * (en-mfa-testdata's 77 s after timit-dev's 233 s: 77.1 s of speech, against 28.0 s alone).
 */
export const FLOOR_SPAN_SECONDS = 60;
/** The local floor is read once for each block of this many frames. */
const FLOOR_BLOCK = 100;
/** The local floor's histogram: levels from this dB up ... */
const FLOOR_LOW_DB = -130;
/** ... in bins this wide (the floor is read to within half a bin) ... */
const FLOOR_BIN_DB = 0.05;
/** ... this many of them (up to +20 dBFS; a level outside falls in the first or the last). */
const FLOOR_BINS = 3000;
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
/** A loud run shorter than this (frames) starts no stretch of speech: a click, not a syllable. */
export const MIN_SEED_FRAMES = 3;
/**
 * A stretch of speech takes in its neighbouring frames down to this many dB under the loud frames'
 * threshold (a weak onset, a fricative at the end), and no more than EDGE_SECONDS of them on each side,
 * so that a noise just under that threshold does not become speech.
 */
export const EDGE_BELOW_ACTIVE_DB = 7;
export const EDGE_SECONDS = 0.15;
/**
 * A pause between two stretches shorter than this (s) is inside the speech: a stop's closure, the gap
 * between two syllables or two words said together.
 */
export const BRIDGE_SECONDS = 0.2;
/** A run of speech outside every word shorter than this is a breath or a click, not a word. */
export const MIN_UNTRANSCRIBED_RUN = 0.25;
/** Margin around an aligned word inside which speech is taken as the word's own (edge errors). */
const WORD_MARGIN = 0.1;
const FRAME = 0.01;

export interface SpeechAnalysis {
  /** per 10 ms frame: 1 when it is loud enough to be a syllable's nucleus (word evidence reads these) */
  frames: Uint8Array;
  /** per 10 ms frame: 1 inside a stretch of speech (the loud frames, their edges and short pauses) */
  regions: Uint8Array;
  /** seconds inside the stretches of speech */
  speechSeconds: number;
  /** active frames that stayed at one level: a steady sound rather than speech */
  steady: boolean;
}

/** Seconds of `perFrame` (SpeechAnalysis.frames or .regions, 10 ms frames) set in [a, b) seconds. */
export function speechIn(perFrame: Uint8Array, a: number, b: number): number {
  let n = 0;
  const to = Math.min(perFrame.length, Math.round(b * 100));
  for (let f = Math.max(0, Math.round(a * 100)); f < to; f++) n += perFrame[f]!;
  return n / 100;
}

export function analyseSpeech(frameDb: Float32Array, frameTiltDb?: Float32Array): SpeechAnalysis {
  const frames = new Uint8Array(frameDb.length);
  if (frameDb.length === 0) return { frames, regions: new Uint8Array(0), speechSeconds: 0, steady: false };
  const sorted = Float32Array.from(frameDb).sort();
  const floors = localFloors(frameDb, sorted);
  // each block's threshold for the loud frames, in double precision as it always was (a Float32Array's map
  // rounds it: floors above -10 dBFS, a file of loud noise, then had frames at the threshold change sides)
  const thr = Array.from(floors.values, (floor) => Math.max(floor + ACTIVE_ABOVE_FLOOR_DB, ACTIVE_MIN_DBFS));
  const thrOf = (f: number) => thr[Math.floor(f / floors.block)]!;
  const deltas: number[] = [];
  for (let f = 0; f < frameDb.length; f++) {
    if (frameDb[f]! < thrOf(f)) continue;
    frames[f] = 1;
    if (f > 0 && frameDb[f - 1]! >= thrOf(f - 1)) deltas.push(Math.abs(frameDb[f]! - frameDb[f - 1]!));
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
  const edges = thr.map((t) => t - EDGE_BELOW_ACTIVE_DB);
  const regions = speechRegions(frames, frameDb, (f) => edges[Math.floor(f / floors.block)]!);
  let n = 0;
  for (const v of regions) n += v;
  return { frames, regions, speechSeconds: round3(n * FRAME), steady };
}

/**
 * The floor of each block of `block` frames: the quietest tenth of the FLOOR_SPAN_SECONDS around the block
 * (the span kept inside the file), from a histogram of the levels that slides along with the blocks. A
 * recording up to FLOOR_SPAN_SECONDS has one block, whose floor is read exactly from `sorted` (its levels,
 * sorted).
 */
export function localFloors(
  frameDb: Float32Array,
  sorted: Float32Array,
): { values: Float32Array; block: number } {
  const n = frameDb.length;
  const span = Math.round(FLOOR_SPAN_SECONDS / FRAME);
  if (n <= span) return { values: Float32Array.of(sorted[Math.floor(n * 0.1)]!), block: Math.max(1, n) };
  const blocks = Math.ceil(n / FLOOR_BLOCK);
  const values = new Float32Array(blocks);
  const counts = new Int32Array(FLOOR_BINS);
  const bin = (f: number) =>
    Math.min(FLOOR_BINS - 1, Math.max(0, Math.floor((frameDb[f]! - FLOOR_LOW_DB) / FLOOR_BIN_DB)));
  // the frames [from, to) counted
  let from = 0;
  let to = 0;
  const rank = Math.floor(span * 0.1);
  for (let b = 0; b < blocks; b++) {
    const centre = b * FLOOR_BLOCK + FLOOR_BLOCK / 2;
    const a = Math.min(n - span, Math.max(0, Math.round(centre - span / 2)));
    for (; to < a + span; to++) counts[bin(to)]!++;
    for (; from < a; from++) counts[bin(from)]!--;
    // the level of rank `rank` among the span's: the middle of its bin
    let seen = 0;
    let k = 0;
    while (k < FLOOR_BINS - 1 && seen + counts[k]! <= rank) seen += counts[k++]!;
    values[b] = FLOOR_LOW_DB + (k + 0.5) * FLOOR_BIN_DB;
  }
  return { values, block: FLOOR_BLOCK };
}

/**
 * The stretches of speech: loud runs of MIN_SEED_FRAMES or more, widened over the neighbouring frames
 * at `edgeDb(frame)` or above (EDGE_SECONDS at most), then joined across gaps of BRIDGE_SECONDS or less.
 */
function speechRegions(active: Uint8Array, frameDb: Float32Array, edgeDb: (f: number) => number): Uint8Array {
  const n = active.length;
  const out = new Uint8Array(n);
  const edge = Math.round(EDGE_SECONDS / FRAME);
  for (let f = 0; f < n;) {
    if (!active[f]) {
      f++;
      continue;
    }
    let e = f;
    while (e < n && active[e]) e++;
    if (e - f >= MIN_SEED_FRAMES) {
      let a = f;
      while (a > 0 && f - a < edge && !out[a - 1] && frameDb[a - 1]! >= edgeDb(a - 1)) a--;
      let b = e;
      while (b < n && b - e < edge && !active[b] && frameDb[b]! >= edgeDb(b)) b++;
      out.fill(1, a, b);
    }
    f = e;
  }
  const bridge = Math.round(BRIDGE_SECONDS / FRAME);
  let last = -1;
  for (let f = 0; f < n; f++) {
    if (!out[f]) continue;
    if (last >= 0 && f - last > 1 && f - last - 1 <= bridge) out.fill(1, last + 1, f);
    last = f;
  }
  return out;
}

/** 90th minus 10th percentile of the tilt of the active frames. */
function tiltSpread(tilt: Float32Array, active: Uint8Array): number {
  const xs: number[] = [];
  for (let f = 0; f < active.length && f < tilt.length; f++) if (active[f]) xs.push(tilt[f]!);
  if (xs.length < 10) return 0;
  xs.sort((a, b) => a - b);
  return xs[Math.floor(0.9 * xs.length)]! - xs[Math.floor(0.1 * xs.length)]!;
}

export interface Untranscribed {
  /** seconds of the stretches of speech outside every aligned word (runs of MIN_UNTRANSCRIBED_RUN or more) */
  seconds: number;
  /**
   * the part of them between the first and the last placed word. Speech left out there means the
   * transcript does not say what is said; speech before the first word or after the last is a recording
   * that goes on beyond its transcript.
   */
  innerSeconds: number;
  /**
   * the most of it in one place, between two neighbouring placed words or before the first or after the
   * last: sentences left out (an introduction, a paragraph), however long the recording
   */
  longestSeconds: number;
}

/** The speech that no aligned word took (metrics/quality.ts turns it into missing words). */
export function untranscribedSpeech(
  speech: SpeechAnalysis,
  words: { start: number | null; end: number | null }[],
): Untranscribed {
  const n = speech.regions.length;
  const covered = new Uint8Array(n);
  let first = n;
  let last = 0;
  for (const w of words) {
    if (w.start === null || w.end === null) continue;
    const a = Math.max(0, Math.floor((w.start - WORD_MARGIN) / FRAME));
    const b = Math.min(n, Math.ceil((w.end + WORD_MARGIN) / FRAME));
    covered.fill(1, a, b);
    first = Math.min(first, a);
    last = Math.max(last, b);
  }
  let total = 0;
  let inner = 0;
  let run = 0;
  let runInner = 0;
  // the runs between two neighbouring placed words (or before the first, after the last), summed
  let between = 0;
  let longest = 0;
  const flush = () => {
    if (run * FRAME >= MIN_UNTRANSCRIBED_RUN) {
      total += run;
      inner += runInner;
      between += run;
      longest = Math.max(longest, between);
    }
    run = 0;
    runInner = 0;
  };
  for (let f = 0; f < n; f++) {
    if (speech.regions[f] && !covered[f]) {
      run++;
      if (f >= first && f < last) runInner++;
    } else {
      flush();
      if (covered[f]) between = 0;
    }
  }
  flush();
  return {
    seconds: round3(total * FRAME),
    innerSeconds: round3(inner * FRAME),
    longestSeconds: round3(longest * FRAME),
  };
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
