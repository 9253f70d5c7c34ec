// From a Viterbi path over a CTC graph to word and letter times, with the boundary correction for peaky
// CTC models.
//
// A CTC model fires each letter on one or two frames and gives the rest to the blank, so the frames a path
// spends on a word's letters mark where the model recognised the word, not where its sound starts and ends:
// the recognised span sits inside the acoustic one, mostly short at the end (the last letter fires before
// the sound dies away). Huang et al., "Less peaky and more accurate CTC forced alignment by label priors"
// (ICASSP 2024), measure this offset; the common repair (as in WhisperX and ctc-forced-aligner, which take
// a word from its first to its last letter frame) leaves it. Our rule: a word may take blank frames
// adjacent to it — at most `startPad` before and `endPad` after, and never more than half of a silence it
// shares with a neighbour — but never frames of the `<star>` wildcard (speech that is not in the text).
// Times are placed on the frame grid shifted by `frameOffset`: frame f of wav2vec2 sees samples
// [320 f, 320 f + 400), so its centre is 12.5 ms after 20 f ms and the 20 ms it stands for start 2.5 ms
// after 20 f ms. The paddings are defaults to tune on a labelled set with the real model (docs/engines.md).
import type { CtcGraph } from './ctc-graph.ts';
import { StateKind } from './ctc-graph.ts';
import type { EmissionMatrix } from './ctc-viterbi.ts';

export interface CtcSpanOptions {
  frameSeconds: number;
  /** seconds added to every frame boundary (see above) */
  frameOffset: number;
  /** most blank frames a word may take before its first letter */
  startPad: number;
  /** most blank frames a word may take after its last letter */
  endPad: number;
}

export const DEFAULT_CTC_SPAN_OPTIONS: CtcSpanOptions = {
  frameSeconds: 0.02,
  frameOffset: 0.0025,
  startPad: 1,
  endPad: 2,
};

export interface LetterSpan {
  label: number;
  start: number;
  end: number;
  confidence: number;
}

export interface CtcWordSpan {
  /** index of the word in the list given to buildCtcGraph */
  word: number;
  found: boolean;
  start: number;
  end: number;
  /** first and last frame (inclusive) after the correction */
  firstFrame: number;
  lastFrame: number;
  /** mean posterior of the path's label over the word's frames from its first to its last letter */
  confidence: number;
  letters: LetterSpan[];
}

export function ctcWordSpans(
  em: EmissionMatrix,
  g: CtcGraph,
  states: Int32Array,
  options: Partial<CtcSpanOptions> = {},
): CtcWordSpan[] {
  const opts = { ...DEFAULT_CTC_SPAN_OPTIONS, ...options };
  const T = states.length;
  const V = em.vocab;
  const post = (t: number): number => {
    const s = states[t]!;
    return Math.exp(em.logProbs[t * V + g.label[s]!]!);
  };
  // First and last frame of every token position of every word.
  const first: Map<number, number>[] = Array.from({ length: g.words }, () => new Map());
  const last: Map<number, number>[] = Array.from({ length: g.words }, () => new Map());
  for (let t = 0; t < T; t++) {
    const s = states[t]!;
    if (g.kind[s] !== StateKind.Token) continue;
    const w = g.word[s]!;
    const p = g.tokenPos[s]!;
    if (!first[w]!.has(p)) first[w]!.set(p, t);
    last[w]!.set(p, t);
  }
  const isBlank = (t: number): boolean => g.kind[states[t]!] === StateKind.Blank;
  const time = (frame: number): number => Math.max(0, frame * opts.frameSeconds + opts.frameOffset);
  const spans: CtcWordSpan[] = [];
  for (let w = 0; w < g.words; w++) {
    const n = first[w]!.size;
    if (n === 0) {
      spans.push({
        word: w,
        found: false,
        start: 0,
        end: 0,
        firstFrame: -1,
        lastFrame: -1,
        confidence: 0,
        letters: [],
      });
      continue;
    }
    const f0 = first[w]!.get(0)!;
    const f1 = last[w]!.get(n - 1)!;
    spans.push({
      word: w,
      found: true,
      start: 0,
      end: 0,
      firstFrame: f0,
      lastFrame: f1,
      confidence: 0,
      letters: [],
    });
  }
  // Boundary correction, using the blank run between consecutive found words.
  const found = spans.filter((s) => s.found);
  found.forEach((sp, i) => {
    const before = i > 0 ? found[i - 1]!.lastFrame : -1;
    const after = i + 1 < found.length ? found[i + 1]!.firstFrame : T;
    let lead = 0;
    while (sp.firstFrame - lead - 1 > before && isBlank(sp.firstFrame - lead - 1)) lead++;
    let trail = 0;
    while (sp.lastFrame + trail + 1 < after && isBlank(sp.lastFrame + trail + 1)) trail++;
    // A silence shared with a neighbour is split between them; at the file edges the word may take its pad.
    const gapBefore = sp.firstFrame - before - 1;
    const gapAfter = after - sp.lastFrame - 1;
    const takeLead = Math.min(opts.startPad, lead, i > 0 ? Math.floor(gapBefore / 2) : lead);
    const takeTrail = Math.min(opts.endPad, trail, i + 1 < found.length ? Math.floor(gapAfter / 2) : trail);
    const w = sp.word;
    const n = first[w]!.size;
    let sum = 0;
    for (let t = sp.firstFrame; t <= sp.lastFrame; t++) sum += post(t);
    sp.confidence = sum / (sp.lastFrame - sp.firstFrame + 1);
    sp.firstFrame -= takeLead;
    sp.lastFrame += takeTrail;
    sp.start = time(sp.firstFrame);
    sp.end = time(sp.lastFrame + 1);
    for (let p = 0; p < n; p++) {
      const a = p === 0 ? sp.firstFrame : first[w]!.get(p)!;
      const b = p + 1 < n ? first[w]!.get(p + 1)! - 1 : sp.lastFrame;
      let c = 0;
      const la = first[w]!.get(p)!;
      const lb = last[w]!.get(p)!;
      for (let t = la; t <= lb; t++) c += post(t);
      sp.letters.push({
        label: g.label[states[la]!]!,
        start: time(a),
        end: time(b + 1),
        confidence: c / (lb - la + 1),
      });
    }
  });
  return spans;
}
