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
}

export type CalibrationClass = 'dictionary' | 'g2p' | 'arabic' | 'ipa';

export function calibrationClass(route: string, inputKind: string, units: Unit[]): CalibrationClass {
  if (inputKind === 'ipa') return 'ipa';
  if (units.some((u) => u.lattice?.length)) return 'arabic';
  if (units.every((u) => !u.ipa && !u.lattice) && route.includes('dictionary')) return 'dictionary';
  return 'g2p';
}

/**
 * The raw score the calibration maps: the former heuristic (decoder probability rescaled, times a
 * penalty for words stretched over more than 200 ms per phone). Of the candidates the fit script prints,
 * it ranks hits above misses best on the model's own language (AUC 0.65 on timit-dev).
 */
export function rawWordScore(e: WordEvidence): number {
  return e.legacy;
}

/**
 * How well the word's audio fits it, for the WER estimate: the decoder probability per phone
 * (p^(1/phones)), which tells the words of a correct transcript from those of another recording's
 * transcript best (AUC 0.80 timit-dev, 0.90 French, 0.76 IPA; 0.75 Arabic, where the optional vowels fit
 * almost anything and the words not found carry the signal).
 */
export function fitScore(e: WordEvidence): number {
  return Math.pow(e.p, 1 / Math.max(1, e.phones));
}

/**
 * Below this fit score a placed word is counted as an error in the WER estimate: the 5th percentile of
 * the fit scores of the words of correct transcripts on the dev sets (bench/calibrate.ts), so about one
 * word in twenty of a correct transcript is counted. g2p borrows the dictionary's figure (2 dev words).
 */
export const FIT_MIN: Record<CalibrationClass, number> = {
  dictionary: 0.9683,
  g2p: 0.9683,
  arabic: 0.9864,
  ipa: 0.946,
};

export function wordFits(e: WordEvidence, cls: CalibrationClass): boolean {
  return fitScore(e) >= FIT_MIN[cls];
}

/** [upper bound of the raw score bin, probability] pairs; the last bin runs to +infinity. */
export type CalibrationTable = [number, number][];

// Fitted by bench/calibrate.ts on the dev-set dump of 2026-11-24 (bench --mode quality --raw, standard
// precision): 825 dictionary words (timit-dev, fr-librivox-mfa), 183 Arabic (ar-synthetic), 42 IPA
// (ar-voxangeles-aeb: one bin, its hit rate); g2p has 2 dev words and uses the pooled table.
export const CALIBRATION: Record<CalibrationClass, CalibrationTable> = {
  dictionary: [
    [0.49, 0.676],
    [0.62, 0.725],
    [0.775, 0.825],
    [0.81, 0.841],
    [0.84, 0.841],
    [0.915, 0.893],
    [Infinity, 0.942],
  ],
  g2p: [
    [0.475, 0.632],
    [0.625, 0.693],
    [0.795, 0.798],
    [0.82, 0.818],
    [0.907, 0.84],
    [Infinity, 0.932],
  ],
  arabic: [
    [0.827, 0.644],
    [0.895, 0.75],
    [Infinity, 0.826],
  ],
  ipa: [[Infinity, 0.548]],
};

export function calibrateWith(table: CalibrationTable, raw: number): number {
  for (const [upper, prob] of table) if (raw <= upper) return prob;
  return table[table.length - 1]![1];
}

export function calibrate(raw: number, cls: CalibrationClass): number {
  return calibrateWith(CALIBRATION[cls], raw);
}
