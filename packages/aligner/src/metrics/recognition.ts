// The scoring half of the recognition pass behind the phone (letter) error rate, shared by the back-ends:
// what a recogniser that does not know the transcript heard (the HMM's free phone loop, the greedy
// decoding of MMS's emissions) is compared with the transcript's units by edit distance. Long files are
// recognised in windows of about 30 s and the counts pooled, so memory and the edit-distance cost stay
// linear in the audio.
import type { Recognition, Unit, UnitSpan } from '../acoustic/backend.ts';
import { editAlign } from './edit-distance.ts';

const round = (x: number): number => Math.round(x * 1000) / 1000;

const nothingToScore = (): Recognition => ({
  wer: null,
  cer: null,
  method: 'no pronounceable words in the transcript',
});

/**
 * `hyp` (labels in the units' own terms) against each unit's first pronunciation (or the first
 * alternative of each lattice slot): cer = label errors / transcript labels, wer = share of transcript
 * words with fewer than half of their labels recognised in the edit alignment.
 */
export function scoreRecognition(units: Unit[], hyp: readonly string[], method: string): Recognition {
  const ref: string[] = [];
  const owner: number[] = [];
  units.forEach((u, ui) => {
    for (const p of u.prons[0] ?? u.lattice?.flatMap((slot) => slot[0] ?? []) ?? []) {
      ref.push(p);
      owner.push(ui);
    }
  });
  if (ref.length === 0) return nothingToScore();
  const { distance, refHit } = editAlign(ref, hyp);
  const perUnit = new Map<number, { hit: number; n: number }>();
  owner.forEach((u, k) => {
    const e = perUnit.get(u) ?? { hit: 0, n: 0 };
    e.n++;
    if (refHit[k]) e.hit++;
    perUnit.set(u, e);
  });
  const words = new Map<number, boolean>();
  for (const [ui, e] of perUnit) {
    const w = units[ui]!.wordIndex;
    words.set(w, (words.get(w) ?? true) && e.hit * 2 >= e.n);
  }
  const wrongWords = [...words.values()].filter((ok) => !ok).length;
  // Per transcript word: labels of its pronunciation the recogniser heard, out of how many.
  const perWord = new Map<number, { hit: number; n: number }>();
  for (const [ui, e] of perUnit) {
    const w = units[ui]!.wordIndex;
    const acc = perWord.get(w) ?? { hit: 0, n: 0 };
    perWord.set(w, { hit: acc.hit + e.hit, n: acc.n + e.n });
  }
  return {
    wer: round(wrongWords / Math.max(1, words.size)),
    cer: round(Math.min(1, distance / ref.length)),
    method,
    counts: { phoneErrors: distance, phones: ref.length, wrongWords, words: words.size },
    perWord,
  };
}

/** Files up to this many seconds are recognised in one pass. */
const SINGLE_MAX = 45;
/** Longer files are cut at aligned word ends once a window holds this many seconds. */
const WINDOW = 30;

export interface RecognitionWindow {
  /** seconds */
  start: number;
  end: number;
  /** the units the alignment put in the window (units without a span follow the last placed one) */
  units: Unit[];
}

/** The windows the recognition pass runs over, each with the units it is scored against. */
export function recognitionWindows(total: number, units: Unit[], spans: UnitSpan[]): RecognitionWindow[] {
  if (total <= SINGLE_MAX) return [{ start: 0, end: total, units }];
  const startOf = new Map<number, number>();
  for (const s of spans) startOf.set(s.unit, s.start);
  const cuts: number[] = [0];
  for (const s of spans) if (s.end - cuts[cuts.length - 1]! >= WINDOW) cuts.push(s.end);
  cuts.push(total);
  const windowOf: number[] = [];
  let w = 0;
  units.forEach((u, i) => {
    const t = startOf.get(i);
    if (t !== undefined) while (w + 1 < cuts.length - 1 && t >= cuts[w + 1]!) w++;
    windowOf[i] = w;
  });
  const out: RecognitionWindow[] = [];
  for (let k = 0; k < cuts.length - 1; k++) {
    const us = units.filter((_, i) => windowOf[i] === k);
    if (us.length) out.push({ start: cuts[k]!, end: cuts[k + 1]!, units: us });
  }
  return out;
}

/** One recognition from the windows' counts (a single window is returned as it is). */
export function poolRecognitions(rs: Recognition[]): Recognition {
  if (rs.length === 1) return rs[0]!;
  let pe = 0;
  let ph = 0;
  let ww = 0;
  let wn = 0;
  let method = '';
  const perWord = new Map<number, { hit: number; n: number }>();
  for (const r of rs) {
    method = r.method;
    if (!r.counts) continue;
    pe += r.counts.phoneErrors;
    ph += r.counts.phones;
    ww += r.counts.wrongWords;
    wn += r.counts.words;
    // A word whose units fell in two windows adds up its labels from both.
    for (const [w, e] of r.perWord ?? []) {
      const acc = perWord.get(w) ?? { hit: 0, n: 0 };
      perWord.set(w, { hit: acc.hit + e.hit, n: acc.n + e.n });
    }
  }
  if (ph === 0) return nothingToScore();
  return {
    wer: round(ww / Math.max(1, wn)),
    cer: round(Math.min(1, pe / ph)),
    method: `${method} (pooled over ${WINDOW} s windows)`,
    counts: { phoneErrors: pe, phones: ph, wrongWords: ww, words: wn },
    perWord,
  };
}
