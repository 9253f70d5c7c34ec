// The CTC alignment graph for a transcript: a left-to-right list of states (blanks, letters and `<star>`
// wildcards) with each state's predecessors, so the Viterbi search in ctc-viterbi.ts stays generic.
//
// Per word k (tokens t1..tn), then one closing block:
//   pre_k (blank) | star_k | post_k (blank) | t1 | b | t2 | b | ... | tn        ...  pre_W | star_W | post_W
// Transitions (every state also loops on itself):
//   pre_k  <- last token of word k-1                      (silence between words)
//   star_k <- pre_k, last token of word k-1  (+ entry)    (speech that is not in the text)
//   star_k <- star_{k-1}                     (+ skip)     (word k-1 is not in the audio: it is skipped)
//   star_k <- pre_{k-1}, last token of word k-2 (+ entry + skip)  (the same without a frame in star_{k-1})
//   star_k <- post_{k-1}                     (+ skip)     (silence between two stretches of extra speech)
//   post_k <- star_k                                      (silence after the unexplained speech)
//   t1     <- pre_k, star_k, post_k, and the last token of word k-1 when the letters differ
//   b      <- the token before it;  t(i+1) <- b, and t(i) when the letters differ (CTC's repeat rule)
// Without the wildcard (`star: false`) the star and post states are left out and words cannot be skipped.
import { BLANK } from '../acoustic/mms/vocab.ts';

export const STAR = -1;

export const StateKind = { Blank: 0, Token: 1, Star: 2 } as const;
export type StateKind = (typeof StateKind)[keyof typeof StateKind];

export interface CtcGraphOptions {
  /** add the `<star>` wildcard between words and let words be skipped */
  star: boolean;
  /** log-score added once when the path enters a star state */
  starEntry: number;
  /** log-score per token of a skipped word (on top of the star's own frames) */
  skipPerToken: number;
}

export const DEFAULT_CTC_GRAPH_OPTIONS: CtcGraphOptions = { star: true, starEntry: -4, skipPerToken: -3 };

export interface CtcGraph {
  size: number;
  /** vocabulary id emitted by each state; STAR for the wildcard */
  label: Int32Array;
  kind: Uint8Array;
  /** word the state belongs to (the block index; W for the closing block) */
  word: Int32Array;
  /** token position inside the word for token states, else -1 */
  tokenPos: Int32Array;
  predStart: Int32Array;
  pred: Int32Array;
  predWeight: Float32Array;
  /** log-score of starting in the state, -Infinity when it cannot start the path */
  initial: Float32Array;
  final: Uint8Array;
  /** widest predecessor jump, in states (the band of the search must cover it) */
  maxJump: number;
  words: number;
}

export function buildCtcGraph(words: number[][], options: Partial<CtcGraphOptions> = {}): CtcGraph {
  const opts = { ...DEFAULT_CTC_GRAPH_OPTIONS, ...options };
  if (words.length === 0) throw new Error('nothing to align: the transcript has no alignable words');
  for (const [k, w] of words.entries()) {
    if (w.length === 0) throw new Error(`word ${k} has no tokens`);
    if (w.some((id) => id === BLANK)) throw new Error(`word ${k} contains the blank token`);
  }
  const label: number[] = [];
  const kind: number[] = [];
  const word: number[] = [];
  const tokenPos: number[] = [];
  const preds: [number, number][][] = [];
  const initial: number[] = [];
  const add = (l: number, k: StateKind, w: number, pos: number, init = -Infinity): number => {
    label.push(l);
    kind.push(k);
    word.push(w);
    tokenPos.push(pos);
    preds.push([]);
    initial.push(init);
    return label.length - 1;
  };
  let lastTok = -1;
  let prevStar = -1;
  let prevWordLen = 0;
  let prevPre = -1;
  let prevPost = -1;
  let prevLastTok = -1;
  const block = (k: number, first: boolean): { pre: number; star: number; post: number } => {
    const pre = add(BLANK, StateKind.Blank, k, -1, first ? 0 : -Infinity);
    if (lastTok >= 0) preds[pre]!.push([lastTok, 0]);
    let star = -1;
    let post = -1;
    if (opts.star) {
      star = add(STAR, StateKind.Star, k, -1, first ? opts.starEntry : -Infinity);
      preds[star]!.push([pre, opts.starEntry]);
      if (lastTok >= 0) preds[star]!.push([lastTok, opts.starEntry]);
      if (prevStar >= 0) {
        // Skipping word k-1 needs no frame of its own star: star_k is also entered from where star_{k-1} is.
        const skip = opts.skipPerToken * prevWordLen;
        preds[star]!.push([prevStar, skip]);
        // Silence between two stretches of unexplained speech: star_{k-1} -> post_{k-1} -> star_k.
        if (prevPost >= 0) preds[star]!.push([prevPost, skip]);
        preds[star]!.push([prevPre, opts.starEntry + skip]);
        if (prevLastTok >= 0) preds[star]!.push([prevLastTok, opts.starEntry + skip]);
      }
      post = add(BLANK, StateKind.Blank, k, -1);
      preds[post]!.push([star, 0]);
    }
    return { pre, star, post };
  };
  words.forEach((tokens, k) => {
    const { pre, star, post } = block(k, k === 0);
    let prev = -1;
    tokens.forEach((id, i) => {
      if (i > 0) {
        const b = add(BLANK, StateKind.Blank, k, -1);
        preds[b]!.push([prev, 0]);
        const t = add(id, StateKind.Token, k, i);
        preds[t]!.push([b, 0]);
        if (label[prev] !== id) preds[t]!.push([prev, 0]);
        prev = t;
        return;
      }
      const t = add(id, StateKind.Token, k, 0, k === 0 ? 0 : -Infinity);
      preds[t]!.push([pre, 0]);
      if (star >= 0) preds[t]!.push([star, 0], [post, 0]);
      if (lastTok >= 0 && label[lastTok] !== id) preds[t]!.push([lastTok, 0]);
      prev = t;
    });
    prevLastTok = lastTok;
    lastTok = prev;
    prevStar = star;
    prevPre = pre;
    prevPost = post;
    prevWordLen = tokens.length;
  });
  const end = block(words.length, false);
  const size = label.length;
  const final = new Uint8Array(size);
  for (const s of [lastTok, end.pre, end.star, end.post]) if (s >= 0) final[s] = 1;
  const predStart = new Int32Array(size + 1);
  for (let s = 0; s < size; s++) predStart[s + 1] = predStart[s]! + preds[s]!.length;
  const pred = new Int32Array(predStart[size]!);
  const predWeight = new Float32Array(predStart[size]!);
  let maxJump = 1;
  for (let s = 0; s < size; s++) {
    preds[s]!.forEach(([p, w], i) => {
      pred[predStart[s]! + i] = p;
      predWeight[predStart[s]! + i] = w;
      maxJump = Math.max(maxJump, s - p);
    });
  }
  return {
    size,
    label: Int32Array.from(label),
    kind: Uint8Array.from(kind),
    word: Int32Array.from(word),
    tokenPos: Int32Array.from(tokenPos),
    predStart,
    pred,
    predWeight,
    initial: Float32Array.from(initial),
    final,
    maxJump,
    words: words.length,
  };
}
