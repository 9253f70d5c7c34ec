// An independent recognition pass over the same emissions: greedy CTC decoding (best label per frame,
// repeats merged, blanks dropped). The MMS back-end scores its letters against the romanised transcript
// (metrics/recognition.ts).
//
// The MMS forced-alignment vocabulary has no word separator, so hypothesis words are cut where the blank
// runs for at least `wordGapFrames` frames (a pause); the scoring compares letters and does not use them.
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
