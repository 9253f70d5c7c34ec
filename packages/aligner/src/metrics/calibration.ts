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
  /** its start, its end is an edge of the searched window (no posterior placed it) */
  open?: [boolean, boolean] | null;
  /** the model phones across its edges: the previous placed word's last, the next one's first (null: none) */
  outerPhones?: [string | null, string | null] | null;
  /** seconds between it and the placed word before it, after it (null: none) */
  gaps?: [number | null, number | null] | null;
  /** seconds of speech (metrics/speech.ts) between it and its placed neighbours or the file's edges */
  gapSpeech?: [number, number] | null;
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

/** Seconds between two placed words below which they are joined (engine.ts counts more as a pause). */
const JOINED = 0.1;

/**
 * One of the word's edges joins it to a neighbouring word whose phone across that edge has the same
 * manner (vowel and vowel, fricative and fricative, ...): no change of manner marks where one word ends
 * and the next begins, and people and the model put such edges apart most often (timit-dev: 15 % of
 * such edges off by more than 50 ms against 4 % of the others; "this skirt", "all year").
 */
export function joinedSameManner(e: WordEvidence): boolean {
  if (!e.edgePhones || !e.outerPhones || !e.gaps) return false;
  return [0, 1].some((k) => {
    const outer = e.outerPhones![k] ?? null;
    const gap = e.gaps![k] ?? null;
    return outer !== null && gap !== null && gap < JOINED && manner(e.edgePhones![k]) === manner(outer);
  });
}

/** Speech between the word and its neighbours that no word took (seconds, both sides, at most 0.3). */
export function strandedSpeech(e: WordEvidence): number {
  return Math.min(0.3, (e.gapSpeech?.[0] ?? 0) + (e.gapSpeech?.[1] ?? 0));
}

/**
 * The evidence a word's raw score weighs: goodness of pronunciation (clipped), the spread of its edges'
 * posteriors, whether it touches a pause or the ends of the placed words, its seconds per phone (log),
 * the decoder probability per phone (fitScore), its phone count (log), the mean and the largest
 * goodness of pronunciation of its phones each over its own frames, whether an edge is the searched
 * window's (no posterior placed it), whether an edge joins it to a phone of the same manner
 * (joinedSameManner), the speech beside it that no word took (strandedSpeech), and for EDGE_CLASSES the
 * manner (vowel, stop, fricative, nasal) of its first and of its last phone. Index 0 is the bias.
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
    e.open?.[0] || e.open?.[1] ? 1 : 0,
    joinedSameManner(e) ? 1 : 0,
    strandedSpeech(e),
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

/**
 * [bias, goodness of pronunciation, fitScore, mean GOP of its phones, largest GOP of one of its phones,
 * speech beside it that no word took]
 */
export function presenceFeatures(e: WordEvidence): number[] {
  return [
    1,
    clipGop(e.gop),
    fitScore(e),
    clipGop(e.phoneGop ?? e.gop),
    clipGop(e.worstGop ?? e.gop, 30),
    strandedSpeech(e),
  ];
}

/**
 * The probability that the word is in the audio at all: a logistic function of its goodness of
 * pronunciation (the word's, its phones' mean and its worst phone's), fitScore and the speech beside it
 * that no word took (a word that is not in the audio is squeezed into part of the speech), fitted by
 * bench/calibrate.ts on the placed words of correct transcripts (present) against those of other
 * recordings' transcripts (absent), each set weighing the same within each side. A word's confidence is the calibrated score times this, so that a
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
  arabic_plain: 2.87,
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

// Fitted by bench/calibrate.ts on the dump of 2026-12-02, 04:35 UTC (bench --mode quality --raw, standard
// precision, this package's decoder after the parity merge, pauses between words at PAUSE_PROB): 829 dictionary words (timit-dev,
// fr-librivox-mfa); 1,060 vowelled Arabic words (ar-synthetic 180, synth-ar 880) and 579 without
// diacritics (synth-ar-plain, ar-synthetic); 333 IPA words (ar-voxangeles-aeb 42, synth-ipa 291); and for
// presence, the placed words of the dev sets' swapped transcripts (490 dictionary, 112 Arabic, 36 IPA).
// g2p borrows the dictionary's fit and Arabic without diacritics the vowelled presence (too few words of
// their own). Weights over scoreFeatures: [bias, GOP, edge spread, at a pause, log seconds per phone,
// fitScore, log phones, phones' mean GOP, largest phone GOP, an edge of the searched window, an edge joined
// to the same manner, stranded speech, first phone vowel / stop / fricative / nasal, last phone vowel /
// stop / fricative / nasal]; presence over presenceFeatures, each set weighing the same within each side.
// Arabic without diacritics alone (its score weights, table and GOP_MAX) was fitted again on the dump of
// 2026-12-03, 11:35 UTC, after its function words got their own readings (text/arabic-function-words.ts)
// and the nisba ending and the tanwin after ة their lattice slots: 582 words of synth-ar-plain, the other classes' words unchanged.
export const SCORE_WEIGHTS: ScoreWeights = {
  dictionary: [
    -9.7587, 0.05, -0.7135, -0.0141, -0.7807, 11.3502, -0.3521, -0.189, 0.0262, -1.5861, -0.6238, 6.5396, 0,
    0, 0, 0, 0, 0, 0, 0,
  ],
  g2p: [
    -9.7587, 0.05, -0.7135, -0.0141, -0.7807, 11.3502, -0.3521, -0.189, 0.0262, -1.5861, -0.6238, 6.5396, 0,
    0, 0, 0, 0, 0, 0, 0,
  ],
  arabic: [
    -65.4465, 0.3704, -0.3463, 0.4006, -0.3396, 66.3021, -0.0821, -0.5311, 0.0268, -3.8802, 1.1627, -9.4736,
    -0.3217, -0.9362, 0.9247, 0.1454, 0.1142, -1.195, -2.122, 0.9146,
  ],
  arabic_plain: [
    23.6589, 0.2384, -0.7041, 0.627, -0.2042, -24.0819, 0.756, -0.3634, -0.0386, -1.2678, 1.0272, -12.2826,
    -0.2777, -0.3212, 0.8168, -0.0037, 0.3607, -2.4485, -1.4845, 0.6489,
  ],
  ipa: [
    15.8668, 0.0757, -0.3641, 0, 1.4366, -9.8549, 0.5235, -0.3676, 0.0448, 0, 0, -34.6828, -1.1449, 0.6814,
    -2.0797, 0.9709, 0.5631, 0.9471, 0.324, 0.8649,
  ],
};

export const PRESENCE_WEIGHTS: PresenceWeights = {
  dictionary: [-35.3556, -0.2559, 40.3279, -0.2217, -0.102, -9.554],
  g2p: [-35.3556, -0.2559, 40.3279, -0.2217, -0.102, -9.554],
  arabic: [-122.204, -0.2784, 128.6154, -0.2369, -0.0956, -14.9305],
  arabic_plain: [-122.204, -0.2784, 128.6154, -0.2369, -0.0956, -14.9305],
  ipa: [-36.5751, -0.3667, 42.2441, -0.246, -0.0385, -10.6874],
};

export const CALIBRATION: Record<CalibrationClass, CalibrationTable> = {
  dictionary: [
    [0.636, 0.609],
    [0.7972, 0.696],
    [0.8327, 0.797],
    [0.8587, 0.855],
    [0.8868, 0.92],
    [0.9096, 0.928],
    [0.9275, 0.949],
    [0.9435, 0.986],
    [0.9616, 0.986],
  ],
  g2p: [
    [0.159, 0.159],
    [0.4243, 0.427],
    [0.5723, 0.502],
    [0.6682, 0.611],
    [0.7363, 0.7],
    [0.7865, 0.782],
    [0.826, 0.858],
    [0.8598, 0.91],
    [0.9052, 0.925],
    [0.9392, 0.961],
    [0.9727, 0.991],
  ],
  arabic: [
    [0.1553, 0.193],
    [0.3987, 0.386],
    [0.5262, 0.427],
    [0.6149, 0.477],
    [0.6746, 0.625],
    [0.7299, 0.719],
    [0.7752, 0.807],
    [0.8208, 0.876],
    [0.8896, 0.949],
    [0.9426, 0.955],
  ],
  arabic_plain: [
    [0.0727, 0.063],
    [0.2652, 0.245],
    [0.4284, 0.354],
    [0.5554, 0.551],
    [0.644, 0.629],
    [0.7104, 0.667],
    [0.7771, 0.784],
    [0.8349, 0.857],
    [0.8856, 0.959],
  ],
  ipa: [
    [0.5161, 0.463],
    [0.8342, 0.81],
    [0.9008, 0.902],
    [0.9254, 0.929],
    [0.9516, 0.976],
    [0.9736, 1],
    [0.986, 1],
    [0.992, 1],
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
