// One global Viterbi search of a CTC graph (ctc-graph.ts) over an emission matrix, in memory that does not
// grow with frames x states:
// - a diagonal band: at frame t only states within `halfBand` of t * states / frames are scored, so work is
//   frames x band rather than frames x states (a 2-hour file is ~360k frames x ~100k states);
// - checkpoints: the forward pass keeps only two score rows, plus a copy of the row every `segment` frames;
//   the back-trace recomputes one segment at a time from its checkpoint and keeps that segment's
//   back-pointers (one byte per state and frame: 0 = stay, i = i-th predecessor). Memory is
//   O(frames / segment x band + segment x band); time is two forward passes.
// The band is wide by default (two minutes of speech either side of the diagonal); a path pushed against
// its edge is reported so the caller can warn that the text and audio may not match.
import type { CtcGraph } from './ctc-graph.ts';
import { STAR } from './ctc-graph.ts';

export interface EmissionMatrix {
  frames: number;
  vocab: number;
  logProbs: Float32Array;
}

export interface CtcViterbiOptions {
  /** states scored on each side of the diagonal; 0 = derived from `bandSeconds` */
  halfBand: number;
  /** band half-width as seconds of speech at the transcript's average rate (20 ms frames) */
  bandSeconds: number;
  /** frames per checkpoint segment; 0 = about sqrt(frames) */
  segment: number;
  /** log-score of the wildcard per frame relative to the best letter in that frame */
  starPerFrame: number;
  /** first vocabulary id the wildcard may stand for (skips the blank and the specials) */
  firstLetter: number;
}

export const DEFAULT_CTC_VITERBI_OPTIONS: CtcViterbiOptions = {
  halfBand: 0,
  bandSeconds: 120,
  segment: 0,
  starPerFrame: -0.5,
  firstLetter: 4,
};

export interface CtcPath {
  /** state of each frame */
  states: Int32Array;
  score: number;
  /** the path came within a few states of the band's edge somewhere */
  touchedBand: boolean;
}

/** Per frame: best letter log-probability plus the per-frame penalty (the wildcard's score, as WhisperX's OOV column). */
export function starScores(em: EmissionMatrix, firstLetter: number, perFrame: number): Float32Array {
  const out = new Float32Array(em.frames);
  const v = em.vocab;
  for (let t = 0; t < em.frames; t++) {
    let m = -Infinity;
    for (let k = firstLetter; k < v; k++) m = Math.max(m, em.logProbs[t * v + k]!);
    out[t] = m + perFrame;
  }
  return out;
}

export function ctcViterbi(
  em: EmissionMatrix,
  g: CtcGraph,
  options: Partial<CtcViterbiOptions> = {},
): CtcPath {
  const opts = { ...DEFAULT_CTC_VITERBI_OPTIONS, ...options };
  const T = em.frames;
  const S = g.size;
  const V = em.vocab;
  if (T === 0) throw new Error('no frames to align');
  for (let s = 0; s < S; s++) {
    if (g.label[s] !== STAR && (g.label[s]! < 0 || g.label[s]! >= V)) {
      throw new Error(`state ${s} has label ${g.label[s]} outside the vocabulary of ${V}`);
    }
  }
  const slope = S / T;
  const derived = Math.ceil((opts.bandSeconds / 0.02) * slope);
  const half = Math.min(S, Math.max(opts.halfBand || derived, 2 * g.maxJump + 16, Math.ceil(slope) + 16));
  const lo = (t: number): number => Math.max(0, Math.min(S - 1, Math.floor(t * slope) - half));
  const hi = (t: number): number => Math.min(S - 1, Math.floor(t * slope) + half);
  const width = 2 * half + 2;
  const segment = opts.segment || Math.max(64, Math.ceil(Math.sqrt(T)));
  const star = starScores(em, opts.firstLetter, opts.starPerFrame);
  const lp = em.logProbs;
  const { label, predStart, pred, initial } = g;

  const emit = (t: number, s: number): number => {
    const l = label[s]!;
    return l === STAR ? star[t]! : lp[t * V + l]!;
  };

  // One frame of the recursion: cur (band of t) from prev (band of t-1); back-pointers when bp is given.
  const step = (
    t: number,
    prev: Float64Array,
    cur: Float64Array,
    bp: Uint8Array | null,
    bpOff: number,
  ): void => stepFrame(t, lo(t), hi(t), lo(t - 1), hi(t - 1), prev, cur, bp, bpOff, g, lp, V, star[t]!);
  const first = (row: Float64Array): void => {
    for (let s = lo(0); s <= hi(0); s++)
      row[s - lo(0)] = initial[s]! === -Infinity ? -Infinity : initial[s]! + emit(0, s);
  };

  // Forward pass: two rows plus a checkpoint (the row of frame a-1) for each segment start a.
  const checkpoints: Float64Array[] = [];
  let prev = new Float64Array(width);
  let cur = new Float64Array(width);
  first(prev);
  for (let t = 1; t < T; t++) {
    if (t % segment === 0) checkpoints.push(prev.slice(0, hi(t - 1) - lo(t - 1) + 1));
    step(t, prev, cur, null, 0);
    [prev, cur] = [cur, prev];
  }
  let endState = -1;
  let score = -Infinity;
  for (let s = lo(T - 1); s <= hi(T - 1); s++) {
    if (g.final[s] && prev[s - lo(T - 1)]! > score) {
      score = prev[s - lo(T - 1)]!;
      endState = s;
    }
  }
  if (endState < 0) {
    throw new Error(
      `the transcript cannot be fitted to the audio (${T} frames of 20 ms for ${S} alignment states): ` +
        'the text is probably much longer than the speech',
    );
  }

  // Back-trace, one segment at a time from the last, recomputing its back-pointers from its checkpoint.
  const states = new Int32Array(T);
  const bp = new Uint8Array(segment * width);
  let s = endState;
  let touched = false;
  for (let seg = Math.ceil(T / segment) - 1; seg >= 0; seg--) {
    const a = seg * segment;
    const b = Math.min(T, a + segment);
    let row = new Float64Array(width);
    let next = new Float64Array(width);
    if (a === 0) first(row);
    else row.set(checkpoints[seg - 1]!);
    for (let t = Math.max(1, a); t < b; t++) {
      step(t, row, next, bp, (t - a) * width);
      [row, next] = [next, row];
    }
    for (let t = b - 1; t >= a; t--) {
      states[t] = s;
      if (t > 0 && (s - lo(t) < 3 || hi(t) - s < 3) && lo(t) > 0 && hi(t) < S - 1) touched = true;
      if (t === 0) break;
      // Frame a's pointer was computed from the checkpoint (the row of frame a-1) in the loop above.
      const code = bp[(t - a) * width + s - lo(t)]!;
      s = code === 0 ? s : pred[predStart[s]! + code - 1]!;
    }
  }
  return { states, score, touchedBand: touched };
}

/** The inner loop of ctcViterbi, a top-level function so the JIT sees one monomorphic call site. */
function stepFrame(
  t: number,
  l0: number,
  h0: number,
  pl: number,
  ph: number,
  prev: Float64Array,
  cur: Float64Array,
  bp: Uint8Array | null,
  bpOff: number,
  g: CtcGraph,
  lp: Float32Array,
  V: number,
  starT: number,
): void {
  const label = g.label;
  const predStart = g.predStart;
  const pred = g.pred;
  const predWeight = g.predWeight;
  const row = t * V;
  for (let s = l0; s <= h0; s++) {
    let best = s <= ph ? prev[s - pl]! : -Infinity;
    let arg = 0;
    const b = predStart[s]!;
    const e = predStart[s + 1]!;
    for (let i = b; i < e; i++) {
      const p = pred[i]!;
      if (p < pl || p > ph) continue;
      const c = prev[p - pl]! + predWeight[i]!;
      if (c > best) {
        best = c;
        arg = i - b + 1;
      }
    }
    const l = label[s]!;
    cur[s - l0] = best + (l === STAR ? starT : lp[row + l]!);
    if (bp !== null) bp[bpOff + s - l0] = arg;
  }
}
