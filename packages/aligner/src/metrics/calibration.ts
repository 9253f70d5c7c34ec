// Word confidence as a calibrated probability: the chance that both edges of the word lie within 50 ms of
// where a person put them. One raw score per word (rawWordScore, monotone in the evidence) is mapped to a
// probability by a binned isotonic table fitted on the dev sets (bench/calibrate.ts prints the tables
// below). One table per kind of pronunciation, because the same raw score means more on the model's own
// language than on phones borrowed for another one.
import type { Unit } from '../acoustic/backend.ts';

export interface WordEvidence {
  /** mean decoder word probability over the word's units (pocketsphinx, 0-1) */
  p: number;
  phones: number;
  seconds: number;
  /** the former heuristic confidence (metrics/confidence.ts) */
  legacy: number;
  /** phones of the word the free phone loop recognised, out of loopN (null without recognition) */
  loopHit: number | null;
  loopN: number | null;
  /**
   * goodness of pronunciation: nats per frame by which the word's forced path explains its audio worse
   * than the free phone loop (null where the back-end has none)
   */
  gop?: number | null;
  /** the larger of the word's edge spreads (frames: mean distance of the edge under its posterior) */
  spread?: number | null;
  /** the word begins or ends the placed words, or touches a pause of at least 100 ms */
  atPause?: boolean;
}

export type CalibrationClass = 'dictionary' | 'g2p' | 'arabic' | 'arabic_plain' | 'ipa';

/** An Arabic word written with its short vowels (fatha, damma, kasra or tanween on any letter). */
export const isVowelled = (word: string): boolean => /[\u064B-\u0650]/.test(word);

/**
 * The table a word's confidence is read from. Arabic words written without their vowels get their own:
 * the aligner chooses the vowels itself there, and places such words within 50 ms less often (50 % of
 * the words of synth-ar-plain against 63 % of the same voices' vowelled words).
 */
export function calibrationClass(
  route: string,
  inputKind: string,
  units: Unit[],
  word: string,
): CalibrationClass {
  if (inputKind === 'ipa') return 'ipa';
  if (units.some((u) => u.lattice?.length)) return isVowelled(word) ? 'arabic' : 'arabic_plain';
  if (units.every((u) => !u.ipa && !u.lattice) && route.includes('dictionary')) return 'dictionary';
  return 'g2p';
}

/**
 * The evidence a word's raw score weighs: goodness of pronunciation (clipped), the spread of its edges'
 * posteriors, whether it touches a pause or the ends of the placed words, its seconds per phone (log),
 * the decoder probability per phone (fitScore) and its phone count (log). Index 0 is the bias.
 */
export function scoreFeatures(e: WordEvidence): number[] {
  const phones = Math.max(1, e.phones);
  return [
    1,
    Math.max(-5, Math.min(15, e.gop ?? 0)),
    Math.min(10, e.spread ?? 0),
    e.atPause ? 1 : 0,
    Math.log(Math.max(0.01, e.seconds) / phones),
    fitScore(e),
    Math.log(phones),
  ];
}

export type ScoreWeights = Record<CalibrationClass, number[]>;

/**
 * The raw score the calibration maps: a logistic combination of scoreFeatures, fitted per class by
 * bench/calibrate.ts on the words of correct transcripts (hit: both edges within 50 ms). Without goodness
 * of pronunciation (the reference decoder, older dumps) the former heuristic: decoder probability with a
 * stretch penalty, or for IPA the probability per phone.
 */
export function rawWordScore(
  e: WordEvidence,
  cls: CalibrationClass,
  weights: ScoreWeights = SCORE_WEIGHTS,
): number {
  if (e.gop === undefined || e.gop === null) return cls === 'ipa' ? fitScore(e) : e.legacy;
  const w = weights[cls];
  const x = scoreFeatures(e);
  let z = 0;
  for (let i = 0; i < w.length; i++) z += w[i]! * x[i]!;
  return 1 / (1 + Math.exp(-z));
}

/** [bias, goodness of pronunciation, fitScore] weights of presence(). */
export type PresenceWeights = Record<CalibrationClass, [number, number, number]>;

/**
 * The probability that the word is in the audio at all: a logistic function of its goodness of
 * pronunciation and fitScore, fitted by bench/calibrate.ts on the placed words of correct transcripts
 * (present) against those of other recordings' transcripts (absent). A word's confidence is the
 * calibrated score times this, so that a transcript of other speech gets low confidences although its
 * words' edges can look as sharp as anyone's. 1 without goodness of pronunciation.
 */
export function presence(
  e: WordEvidence,
  cls: CalibrationClass,
  weights: PresenceWeights = PRESENCE_WEIGHTS,
): number {
  if (e.gop === undefined || e.gop === null) return 1;
  const [a, b, c] = weights[cls];
  return 1 / (1 + Math.exp(-(a + b * Math.max(-5, Math.min(15, e.gop)) + c * fitScore(e))));
}

/**
 * How well the word's audio fits it, without goodness of pronunciation: the decoder probability per
 * phone (p^(1/phones)).
 */
export function fitScore(e: WordEvidence): number {
  return Math.pow(e.p, 1 / Math.max(1, e.phones));
}

/**
 * Below this fit score a placed word is counted as an error in the WER estimate (without goodness of
 * pronunciation): the 5th percentile of the fit scores of correct transcripts' words on the dev sets.
 */
export const FIT_MIN: Record<CalibrationClass, number> = {
  dictionary: 0.9683,
  g2p: 0.9683,
  arabic: 0.9864,
  arabic_plain: 0.9864,
  ipa: 0.946,
};

/**
 * Above this goodness of pronunciation (nats per frame) a placed word's audio does not fit it: the 95th
 * percentile of the words of correct transcripts (so about one word in twenty of a correct transcript
 * is counted as an error), printed by bench/calibrate.ts.
 */
export const GOP_MAX: Record<CalibrationClass, number> = {
  dictionary: 2.32,
  g2p: 3.08,
  arabic: 3.36,
  arabic_plain: 2.91,
  ipa: 2.88,
};

export function wordFits(
  e: WordEvidence,
  cls: CalibrationClass,
  gopMax: Record<CalibrationClass, number> = GOP_MAX,
): boolean {
  if (e.gop === undefined || e.gop === null) return fitScore(e) >= FIT_MIN[cls];
  return e.gop <= gopMax[cls];
}

/** [upper bound of the raw score bin, probability] pairs; the last bin runs to +infinity. */
export type CalibrationTable = [number, number][];

// Fitted by bench/calibrate.ts on the dump of 2026-11-26 (bench --mode quality --raw, standard precision,
// this package's decoder): 829 dictionary words (timit-dev, fr-librivox-mfa); 1,050 vowelled Arabic words
// (ar-synthetic 183, synth-ar 867) and 576 without diacritics (synth-ar-plain); 332 IPA words
// (ar-voxangeles-aeb 42, synth-ipa 290); and for presence, the placed words of the dev sets' swapped
// transcripts (481 dictionary, 99 Arabic, 36 IPA). g2p borrows the dictionary's fit and Arabic without
// diacritics the vowelled presence (too few words of their own). Weights: [bias, GOP, edge spread,
// at a pause, log seconds per phone, fitScore, log phones].
export const SCORE_WEIGHTS: ScoreWeights = {
  dictionary: [-31.1381, -0.0143, -0.6963, -0.1094, -0.7247, 32.886, -0.3805],
  g2p: [-31.1381, -0.0143, -0.6963, -0.1094, -0.7247, 32.886, -0.3805],
  arabic: [-174.9813, 0.0148, -0.4095, 0.122, 0.5012, 179.6365, -0.7806],
  arabic_plain: [-70.6637, -0.1424, -0.5092, 0.0575, 0.0184, 72.6401, -0.2716],
  ipa: [-12.8485, -0.2523, -0.7898, 0, 1.7313, 18.4216, 1.5054],
};

export const PRESENCE_WEIGHTS: PresenceWeights = {
  dictionary: [-37.1106, -0.3857, 41.2477],
  g2p: [-37.1106, -0.3857, 41.2477],
  arabic: [-195.8604, -0.3197, 200.4262],
  arabic_plain: [-195.8604, -0.3197, 200.4262],
  ipa: [-54.9018, -0.4051, 59.4312],
};

export const CALIBRATION: Record<CalibrationClass, CalibrationTable> = {
  dictionary: [
    [0.77, 0.601],
    [0.842, 0.746],
    [0.875, 0.855],
    [0.887, 0.928],
    [0.92, 0.932],
    [0.936, 0.957],
    [Infinity, 0.986],
  ],
  g2p: [
    [0.477, 0.378],
    [0.567, 0.509],
    [0.614, 0.575],
    [0.696, 0.612],
    [0.726, 0.718],
    [0.758, 0.773],
    [0.817, 0.778],
    [0.869, 0.858],
    [0.902, 0.906],
    [0.931, 0.927],
    [Infinity, 0.974],
  ],
  arabic: [
    [0.494, 0.386],
    [0.598, 0.477],
    [0.667, 0.588],
    [0.687, 0.591],
    [0.701, 0.674],
    [0.714, 0.705],
    [0.726, 0.739],
    [0.779, 0.792],
    [Infinity, 0.91],
  ],
  arabic_plain: [
    [0.364, 0.208],
    [0.494, 0.417],
    [0.529, 0.469],
    [0.55, 0.542],
    [0.595, 0.579],
    [Infinity, 0.663],
  ],
  ipa: [
    [0.804, 0.585],
    [0.904, 0.88],
    [0.924, 0.881],
    [0.961, 0.96],
    [Infinity, 1],
  ],
};

export function calibrateWith(table: CalibrationTable, raw: number): number {
  for (const [upper, prob] of table) if (raw <= upper) return prob;
  return table[table.length - 1]![1];
}

export function calibrate(raw: number, cls: CalibrationClass): number {
  return calibrateWith(CALIBRATION[cls], raw);
}
