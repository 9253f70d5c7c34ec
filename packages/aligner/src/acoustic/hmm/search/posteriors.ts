// Where each boundary of the best path could lie: forward-backward over the path's phones as one
// left-to-right chain of states, with the frame log-likelihoods scaled down (they treat overlapping frames
// as independent and are over-confident as they stand). The posterior of "phone i starts at frame t" gives
// each boundary a mean, which falls between frames (finer than the 10 ms frame step), and a spread, which
// says how sure the audio is of it. Each phone's states are only allowed within BAND frames of where the
// path put the phone, so the work and memory are linear in the window.
import { TMAT_FORBIDDEN } from '../model/acoustic-model.ts';
import type { AcousticModel } from '../model/acoustic-model.ts';
import type { SenoneCosts } from '../scoring/senones.ts';
import { UNIT_NATS } from '../scoring/senones.ts';
import type { Network } from './network.ts';
import type { PathPhone } from './viterbi.ts';

/** Frames a phone may move from where the path put it. */
export const BAND = 25;

export interface BoundaryPosterior {
  /** posterior mean of the frame the phone starts at (fractional); phone 0: 0 */
  mean: number;
  /** posterior standard deviation of that frame */
  sd: number;
}

function lse(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  return a > b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b));
}

/**
 * The start posterior of every phone of the path (index i: path.phones[i]), and the posterior of the
 * path's end at the last frame. `scale` multiplies every log-likelihood and log-probability.
 */
export function boundaryPosteriors(
  m: AcousticModel,
  net: Network,
  costs: SenoneCosts,
  phones: readonly PathPhone[],
  nFrames: number,
  scale: number,
): BoundaryPosterior[] {
  const n = phones.length;
  if (n === 0) return [];
  const nTo = m.nTmatTo;
  const k = scale * UNIT_NATS;
  // per phone: its frame range [lo, hi], and arrays of 3 states x frames for alpha and beta
  const lo = new Int32Array(n);
  const hi = new Int32Array(n);
  const sen: Int32Array[] = [];
  const tp: Float64Array[] = [];
  for (let i = 0; i < n; i++) {
    const p = phones[i]!;
    lo[i] = i === 0 ? 0 : Math.max(0, p.start - BAND);
    hi[i] = i === n - 1 ? nFrames - 1 : Math.min(nFrames - 1, p.end + BAND);
    const h = net.hmms[p.hmm]!;
    sen.push(h.senones);
    // log transition probabilities (scaled), [from][to] with to = 3 the exit
    const t = new Float64Array(12);
    for (let a = 0; a < 3; a++)
      for (let b = 0; b < 4; b++) {
        const c = m.tmat[(h.tmat * 3 + a) * nTo + b]!;
        t[a * 4 + b] = c >= TMAT_FORBIDDEN ? -Infinity : -c * k;
      }
    tp.push(t);
  }
  const width = (i: number) => hi[i]! - lo[i]! + 1;
  const alpha = Array.from({ length: n }, (_, i) => new Float64Array(3 * width(i)).fill(-Infinity));
  const beta = Array.from({ length: n }, (_, i) => new Float64Array(3 * width(i)).fill(-Infinity));
  const emit = Array.from({ length: n }, (_, i) => {
    const e = new Float64Array(3 * width(i));
    for (let t = lo[i]!; t <= hi[i]!; t++)
      for (let j = 0; j < 3; j++) e[(t - lo[i]!) * 3 + j] = -costs.at(t, sen[i]![j]!) * k;
    return e;
  });
  const A = (i: number, t: number, j: number) =>
    i < 0 || i >= n || t < lo[i]! || t > hi[i]! ? -Infinity : alpha[i]![(t - lo[i]!) * 3 + j]!;
  const B = (i: number, t: number, j: number) =>
    i < 0 || i >= n || t < lo[i]! || t > hi[i]! ? -Infinity : beta[i]![(t - lo[i]!) * 3 + j]!;
  /** the log-probability of leaving phone i at the end of frame t */
  const exitAt = (i: number, t: number): number => {
    const x = tp[i]!;
    return lse(lse(A(i, t, 0) + x[3]!, A(i, t, 1) + x[7]!), A(i, t, 2) + x[11]!);
  };
  // forward, frame by frame over the phones whose band holds it
  let first = 0;
  for (let t = 0; t < nFrames; t++) {
    while (first < n && hi[first]! < t) first++;
    for (let i = first; i < n && lo[i]! <= t; i++) {
      const x = tp[i]!;
      const e = emit[i]!;
      const o = (t - lo[i]!) * 3;
      const enter = i === 0 ? (t === 0 ? 0 : -Infinity) : t > 0 ? exitAt(i - 1, t - 1) : -Infinity;
      const a0 = lse(A(i, t - 1, 0) + x[0]!, enter);
      const a1 = lse(A(i, t - 1, 1) + x[5]!, A(i, t - 1, 0) + x[1]!);
      const a2 = lse(lse(A(i, t - 1, 2) + x[10]!, A(i, t - 1, 1) + x[6]!), A(i, t - 1, 0) + x[2]!);
      alpha[i]![o] = a0 + e[o]!;
      alpha[i]![o + 1] = a1 + e[o + 1]!;
      alpha[i]![o + 2] = a2 + e[o + 2]!;
    }
  }
  // backward
  let last = n - 1;
  for (let t = nFrames - 1; t >= 0; t--) {
    while (last >= 0 && lo[last]! > t) last--;
    for (let i = last; i >= 0 && hi[i]! >= t; i--) {
      const x = tp[i]!;
      const o = (t - lo[i]!) * 3;
      const nextE = (j: number) => (t + 1 <= hi[i]! ? emit[i]![(t + 1 - lo[i]!) * 3 + j]! : -Infinity);
      const stay = (j: number) => B(i, t + 1, j) + nextE(j);
      let leave: number;
      if (i === n - 1) leave = t === nFrames - 1 ? 0 : -Infinity;
      else if (t + 1 >= lo[i + 1]! && t + 1 <= hi[i + 1]!)
        leave = B(i + 1, t + 1, 0) + emit[i + 1]![(t + 1 - lo[i + 1]!) * 3]!;
      else leave = -Infinity;
      beta[i]![o] = lse(lse(x[0]! + stay(0), x[1]! + stay(1)), lse(x[2]! + stay(2), x[3]! + leave));
      beta[i]![o + 1] = lse(lse(x[5]! + stay(1), x[6]! + stay(2)), x[7]! + leave);
      beta[i]![o + 2] = lse(x[10]! + stay(2), x[11]! + leave);
    }
  }
  // start posteriors: leave phone i-1 at the end of frame t-1, enter phone i at frame t
  const out: BoundaryPosterior[] = [{ mean: 0, sd: 0 }];
  for (let i = 1; i < n; i++) {
    const ws: number[] = [];
    const ts: number[] = [];
    for (let t = Math.max(lo[i]!, lo[i - 1]! + 1); t <= Math.min(hi[i]!, hi[i - 1]! + 1); t++) {
      const v = exitAt(i - 1, t - 1) + emit[i]![(t - lo[i]!) * 3]! + B(i, t, 0);
      if (v === -Infinity) continue;
      ws.push(v);
      ts.push(t);
    }
    if (ws.length === 0) {
      out.push({ mean: phones[i]!.start, sd: 0 });
      continue;
    }
    const max = Math.max(...ws);
    let z = 0;
    let s1 = 0;
    let s2 = 0;
    ws.forEach((v, q) => {
      const p = Math.exp(v - max);
      z += p;
      s1 += p * ts[q]!;
      s2 += p * ts[q]! * ts[q]!;
    });
    const mean = s1 / z;
    out.push({ mean, sd: Math.sqrt(Math.max(0, s2 / z - mean * mean)) });
  }
  return out;
}
