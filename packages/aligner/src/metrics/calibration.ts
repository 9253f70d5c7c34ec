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

export function rawWordScore(e: WordEvidence): number {
  return e.legacy;
}

/** [upper bound of the raw score bin, probability] pairs; the last bin runs to +infinity. */
export type CalibrationTable = [number, number][];

export const CALIBRATION: Record<CalibrationClass, CalibrationTable> = {
  dictionary: [[Infinity, 0.5]],
  g2p: [[Infinity, 0.5]],
  arabic: [[Infinity, 0.5]],
  ipa: [[Infinity, 0.5]],
};

export function calibrateWith(table: CalibrationTable, raw: number): number {
  for (const [upper, prob] of table) if (raw <= upper) return prob;
  return table[table.length - 1]![1];
}

export function calibrate(raw: number, cls: CalibrationClass): number {
  return calibrateWith(CALIBRATION[cls], raw);
}
