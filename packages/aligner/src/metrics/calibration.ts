// Word confidence as a calibrated probability: the chance that both edges of the word lie within 50 ms of
// where a person put them. One raw score per word (rawWordScore, monotone in the evidence) is mapped to a
// probability by a binned isotonic table fitted on the dev sets (bench/calibrate.ts prints the tables
// below). One table per kind of pronunciation, because the same raw score means more on the model's own
// language than on phones borrowed for another one.
import type { Unit } from '../acoustic/backend.ts';
import { MODEL_PHONE_IPA } from '../acoustic/hmm/phone-map.ts';

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
  /** goodness of pronunciation of each phone over its own frames, averaged over the word's phones */
  phoneGop?: number | null;
  /** the largest goodness of pronunciation of one of its phones */
  worstGop?: number | null;
  /** frames of the word's shortest phone on the path */
  minFrames?: number | null;
  /** the spreads of its start and of its end (frames) */
  spreads?: [number, number] | null;
  /** the model phones at its start and at its end */
  edgePhones?: [string, string] | null;
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

/** IPA of both models' phone labels (English ARPAbet, French LIUM): their manner decides an edge's class. */
const LABEL_IPA: Record<string, string> = { ...MODEL_PHONE_IPA.en, ...MODEL_PHONE_IPA.fr };

/** Manner of a model phone: 0 vowel, 1 stop or affricate, 2 fricative, 3 nasal, 4 other (approximants). */
export function manner(label: string | undefined): number {
  const ipa = label ? LABEL_IPA[label] : undefined;
  if (!ipa) return 4;
  const c = ipa.normalize('NFD')[0]!;
  if ('aeiouyøœɑɔəɛɝɪʊæ'.includes(c)) return 0;
  if ('pbtdkɡ'.includes(c)) return 1;
  if ('fvszʃʒθðhʁ'.includes(c)) return 2;
  if ('mnŋɲ'.includes(c)) return 3;
  return 4;
}

/**
 * Classes whose words' edge phones enter their score: words spelled by rules or given in IPA on a model
 * of another language, where which English phone stands at an edge (the stand-ins of pharyngeals and
 * emphatics are stops and fricatives) says much about how well the edge is placed. The dictionary class
 * pools two models and two kinds of reference (English, French), and there the edge phones did not help
 * held out (docs/benchmarks.md, Issue 26).
 */
const EDGE_CLASSES: ReadonlySet<CalibrationClass> = new Set(['arabic', 'arabic_plain', 'ipa']);

const clipGop = (x: number | null | undefined, hi = 15): number => Math.max(-5, Math.min(hi, x ?? 0));

/**
 * The evidence a word's raw score weighs: goodness of pronunciation (clipped), the spread of its edges'
 * posteriors, whether it touches a pause or the ends of the placed words, its seconds per phone (log),
 * the decoder probability per phone (fitScore), its phone count (log), the mean and the largest
 * goodness of pronunciation of its phones each over its own frames, and for EDGE_CLASSES the manner
 * (vowel, stop, fricative, nasal) of its first and of its last phone. Index 0 is the bias.
 */
export function scoreFeatures(e: WordEvidence, cls: CalibrationClass): number[] {
  const phones = Math.max(1, e.phones);
  const out = [
    1,
    clipGop(e.gop),
    Math.min(10, e.spread ?? 0),
    e.atPause ? 1 : 0,
    Math.log(Math.max(0.01, e.seconds) / phones),
    fitScore(e),
    Math.log(phones),
    clipGop(e.phoneGop ?? e.gop),
    clipGop(e.worstGop ?? e.gop, 30),
  ];
  const edges = EDGE_CLASSES.has(cls) && e.edgePhones ? e.edgePhones.map(manner) : [-1, -1];
  for (const m of edges) for (let k = 0; k < 4; k++) out.push(m === k ? 1 : 0);
  return out;
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
  const x = scoreFeatures(e, cls);
  let z = 0;
  for (let i = 0; i < w.length; i++) z += w[i]! * x[i]!;
  return 1 / (1 + Math.exp(-z));
}

/** Weights of presence(), over presenceFeatures. */
export type PresenceWeights = Record<CalibrationClass, number[]>;

/** [bias, goodness of pronunciation, fitScore, mean GOP of its phones, largest GOP of one of its phones] */
export function presenceFeatures(e: WordEvidence): number[] {
  return [1, clipGop(e.gop), fitScore(e), clipGop(e.phoneGop ?? e.gop), clipGop(e.worstGop ?? e.gop, 30)];
}

/**
 * The probability that the word is in the audio at all: a logistic function of its goodness of
 * pronunciation (the word's, its phones' mean and its worst phone's) and fitScore, fitted by
 * bench/calibrate.ts on the placed words of correct transcripts (present) against those of other
 * recordings' transcripts (absent). A word's confidence is the calibrated score times this, so that a
 * transcript of other speech gets low confidences although its words' edges can look as sharp as
 * anyone's. 1 without goodness of pronunciation.
 */
export function presence(
  e: WordEvidence,
  cls: CalibrationClass,
  weights: PresenceWeights = PRESENCE_WEIGHTS,
): number {
  if (e.gop === undefined || e.gop === null) return 1;
  const w = weights[cls];
  const x = presenceFeatures(e);
  let z = 0;
  for (let i = 0; i < w.length; i++) z += w[i]! * x[i]!;
  return 1 / (1 + Math.exp(-z));
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
  dictionary: 2.13,
  g2p: 2.94,
  arabic: 3.12,
  arabic_plain: 2.78,
  ipa: 3.18,
};

export function wordFits(
  e: WordEvidence,
  cls: CalibrationClass,
  gopMax: Record<CalibrationClass, number> = GOP_MAX,
): boolean {
  if (e.gop === undefined || e.gop === null) return fitScore(e) >= FIT_MIN[cls];
  return e.gop <= gopMax[cls];
}

/**
 * Knots [raw score, probability], rising in both: the mean raw score of a pooled bin of words and its
 * share of hits. Between knots the probability is interpolated (so that two words with different scores
 * keep their order), and beyond the first and the last it stays at theirs.
 */
export type CalibrationTable = [number, number][];

// Fitted by bench/calibrate.ts on the dump of 2026-12-02 (bench --mode quality --raw, standard precision,
// this package's decoder, pauses between words at PAUSE_PROB): 829 dictionary words (timit-dev,
// fr-librivox-mfa); 1,060 vowelled Arabic words (ar-synthetic 180, synth-ar 880) and 579 without
// diacritics (synth-ar-plain, ar-synthetic); 333 IPA words (ar-voxangeles-aeb 42, synth-ipa 291); and for
// presence, the placed words of the dev sets' swapped transcripts (490 dictionary, 112 Arabic, 36 IPA).
// g2p borrows the dictionary's fit and Arabic without diacritics the vowelled presence (too few words of
// their own). Weights over scoreFeatures: [bias, GOP, edge spread, at a pause, log seconds per phone,
// fitScore, log phones, phones' mean GOP, largest phone GOP, first phone vowel / stop / fricative / nasal,
// last phone vowel / stop / fricative / nasal]; presence over presenceFeatures.
export const SCORE_WEIGHTS: ScoreWeights = {
  dictionary: [
    -12.4564, 0.0532, -0.6169, -0.0992, -0.8558, 13.5677, -0.437, -0.2035, 0.0281, 0, 0, 0, 0, 0, 0, 0, 0,
  ],
  g2p: [
    -12.4564, 0.0532, -0.6169, -0.0992, -0.8558, 13.5677, -0.437, -0.2035, 0.0281, 0, 0, 0, 0, 0, 0, 0, 0,
  ],
  arabic: [
    -80.362, 0.3825, -0.4115, 0.1498, -0.2348, 82.2674, -0.258, -0.55, 0.0323, 0.1076, -0.7664, 0.8458, 0.212,
    0.2219, -1.4707, -2.1741, 0.6401,
  ],
  arabic_plain: [
    -33.6121, 0.138, -0.4294, 0.2336, -0.6113, 32.9858, -0.3302, -0.3371, -0.0058, 0.8289, -0.1607, 0.771,
    0.7282, 0.8532, -1.9036, -0.9637, 1.1916,
  ],
  ipa: [
    -0.4783, 0.1732, -0.4817, 0, 1.7723, 6.4621, 1.1862, -0.4766, 0.005, -0.7777, 0.4993, -1.5471, 1.2131,
    0.3708, 0.9792, 0.451, 0.7932,
  ],
};

export const PRESENCE_WEIGHTS: PresenceWeights = {
  dictionary: [-31.3445, -0.2486, 36.1907, -0.217, -0.1096],
  g2p: [-31.3445, -0.2486, 36.1907, -0.217, -0.1096],
  arabic: [-223.7144, -0.1309, 230.0346, -0.3413, -0.1016],
  arabic_plain: [-223.7144, -0.1309, 230.0346, -0.3413, -0.1016],
  ipa: [-51.8853, -0.347, 57.3808, -0.2669, -0.0358],
};

export const CALIBRATION: Record<CalibrationClass, CalibrationTable> = {
  dictionary: [
    [0.5877, 0.638],
    [0.7504, 0.638],
    [0.8089, 0.783],
    [0.8479, 0.804],
    [0.8718, 0.855],
    [0.9016, 0.938],
    [0.9306, 0.942],
    [0.9522, 0.986],
  ],
  g2p: [
    [0.2336, 0.227],
    [0.4851, 0.483],
    [0.5935, 0.597],
    [0.6602, 0.607],
    [0.7119, 0.674],
    [0.7583, 0.744],
    [0.801, 0.833],
    [0.843, 0.837],
    [0.8746, 0.872],
    [0.8985, 0.94],
    [0.9227, 0.94],
    [0.9643, 0.991],
  ],
  arabic: [
    [0.1945, 0.216],
    [0.4547, 0.364],
    [0.5739, 0.596],
    [0.6556, 0.608],
    [0.7172, 0.674],
    [0.7526, 0.716],
    [0.7795, 0.818],
    [0.8071, 0.854],
    [0.8424, 0.898],
    [0.8799, 0.909],
    [0.9139, 0.966],
  ],
  arabic_plain: [
    [0.1041, 0.083],
    [0.315, 0.292],
    [0.408, 0.313],
    [0.4705, 0.551],
    [0.5462, 0.563],
    [0.6045, 0.563],
    [0.6466, 0.571],
    [0.6901, 0.698],
    [0.7613, 0.825],
  ],
  ipa: [
    [0.583, 0.585],
    [0.806, 0.762],
    [0.8796, 0.854],
    [0.9162, 0.905],
    [0.9509, 0.976],
    [0.9797, 1],
    [0.9909, 1],
  ],
};

export function calibrateWith(table: CalibrationTable, raw: number): number {
  if (raw <= table[0]![0]) return table[0]![1];
  for (let i = 1; i < table.length; i++) {
    const [x1, y1] = table[i]!;
    if (raw <= x1) {
      const [x0, y0] = table[i - 1]!;
      return x1 > x0 ? y0 + ((raw - x0) / (x1 - x0)) * (y1 - y0) : y1;
    }
  }
  return table[table.length - 1]![1];
}

export function calibrate(raw: number, cls: CalibrationClass): number {
  return calibrateWith(CALIBRATION[cls], raw);
}
