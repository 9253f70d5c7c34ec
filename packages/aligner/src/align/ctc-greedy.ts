// An independent recognition pass over the same emissions: greedy CTC decoding (best label per frame,
// repeats merged, blanks dropped), scored against the romanised transcript by edit distance.
//
// The MMS forced-alignment vocabulary has no word separator, so hypothesis words are cut where the blank
// runs for at least `wordGapFrames` frames (a pause). WER from such cuts is approximate; CER compares the
// letter strings with word boundaries removed and does not depend on it.
import type { EmissionMatrix } from './ctc-viterbi.ts';

export interface GreedyOptions {
  blank: number;
  /** ids below this are specials that are never part of a transcript */
  firstLetter: number;
  wordGapFrames: number;
}

export const DEFAULT_GREEDY_OPTIONS: GreedyOptions = { blank: 0, firstLetter: 4, wordGapFrames: 4 };

/** Greedy decoding: a list of hypothesis words, each a list of vocabulary ids. */
export function greedyDecode(em: EmissionMatrix, options: Partial<GreedyOptions> = {}): number[][] {
  const opts = { ...DEFAULT_GREEDY_OPTIONS, ...options };
  const V = em.vocab;
  const words: number[][] = [];
  let cur: number[] = [];
  let prev = -1;
  let blankRun = 0;
  for (let t = 0; t < em.frames; t++) {
    let best = 0;
    for (let k = 1; k < V; k++) if (em.logProbs[t * V + k]! > em.logProbs[t * V + best]!) best = k;
    if (best === opts.blank || best < opts.firstLetter) {
      blankRun++;
      if (blankRun >= opts.wordGapFrames && cur.length) {
        words.push(cur);
        cur = [];
      }
      if (best === opts.blank) prev = -1;
      continue;
    }
    blankRun = 0;
    if (best !== prev) cur.push(best);
    prev = best;
  }
  if (cur.length) words.push(cur);
  return words;
}

/** Levenshtein distance restricted to cells with |i - j| <= k: exact when the result is <= k, else an upper bound. */
function bandedDistance<T>(a: readonly T[], b: readonly T[], k: number): number {
  const INF = Number.MAX_SAFE_INTEGER;
  let prev = new Array<number>(b.length + 1).fill(INF);
  let cur = new Array<number>(b.length + 1).fill(INF);
  for (let j = 0; j <= Math.min(b.length, k); j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const lo = Math.max(0, i - k);
    const hi = Math.min(b.length, i + k);
    if (lo > 0) cur[lo - 1] = INF;
    for (let j = lo; j <= hi; j++) {
      if (j === 0) {
        cur[0] = i;
        continue;
      }
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    if (hi < b.length) cur[hi + 1] = INF;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/**
 * Levenshtein distance, in time O((n + m) d) rather than O(n m) (Ukkonen's doubling band), so a two-hour
 * transcript is scored in seconds. Past `maxBand` the band stops growing and the result is an upper bound.
 */
export function editDistance<T>(a: readonly T[], b: readonly T[], maxBand = 1 << 13): number {
  let k = Math.max(16, Math.abs(a.length - b.length));
  for (;;) {
    const d = bandedDistance(a, b, k);
    if (d <= k || k >= Math.max(a.length, b.length) || k >= maxBand) return d;
    k *= 2;
  }
}

export interface ErrorRates {
  wer: number;
  cer: number;
}

/** WER over words and CER over letters (word boundaries removed), both relative to the reference length. */
export function errorRates(hypothesis: string[], reference: string[]): ErrorRates {
  const refChars = [...reference.join('')];
  const hypChars = [...hypothesis.join('')];
  return {
    wer: reference.length
      ? editDistance(hypothesis, reference) / reference.length
      : hypothesis.length
        ? 1
        : 0,
    cer: refChars.length ? editDistance(hypChars, refChars) / refChars.length : hypChars.length ? 1 : 0,
  };
}
