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
import { netHmm } from './network.ts';
import type { PathPhone } from './viterbi.ts';

/** Frames a phone may move from where the path put it. */
export const BAND = 25;

export interface BoundaryPosterior {
  /** posterior mean of the frame the phone starts at (fractional); phone 0: 0 */
  mean: number;
  /** posterior standard deviation of that frame */
  sd: number;
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
    const h = netHmm(net, p.hmm);
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
  // Probabilities in the linear domain, each frame's scaled to sum to 1 (the scale kept per frame): no
  // logarithm in the recursions. Emissions are divided by the frame's best before exponentiation.
  // (loops, not callbacks: a function made anew by each call is compiled anew by the JIT once hot, and the
  // call sites that took the last call's deoptimised on the next one's, "wrong call target")
  const alpha: Float64Array[] = [];
  const beta: Float64Array[] = [];
  const frameBest = new Float64Array(nFrames).fill(-Infinity);
  const emit: Float64Array[] = [];
  for (let i = 0; i < n; i++) {
    const size = 3 * (hi[i]! - lo[i]! + 1);
    alpha.push(new Float64Array(size));
    beta.push(new Float64Array(size));
    const e = new Float64Array(size);
    for (let t = lo[i]!; t <= hi[i]!; t++)
      for (let j = 0; j < 3; j++) {
        const v = -costs.at(t, sen[i]![j]!) * k;
        e[(t - lo[i]!) * 3 + j] = v;
        if (v > frameBest[t]!) frameBest[t] = v;
      }
    emit.push(e);
  }
  for (let i = 0; i < n; i++) {
    const e = emit[i]!;
    for (let q = 0; q < e.length; q++) e[q] = Math.exp(e[q]! - frameBest[lo[i]! + Math.floor(q / 3)]!);
  }
  // (pushed, as tp was: an array made by map() may come out with other elements than another call's, and the
  // recursions below were compiled for one)
  const x: Float64Array[] = [];
  for (const t of tp) {
    const xt = new Float64Array(t.length);
    for (let q = 0; q < t.length; q++) xt[q] = Math.exp(t[q]!);
    x.push(xt);
  }
  // forward, frame by frame over the phones whose band holds it; frameSum[t]: the frame's sum before scaling
  const frameSum = new Float64Array(nFrames).fill(1);
  let first = 0;
  for (let t = 0; t < nFrames; t++) {
    while (first < n && hi[first]! < t) first++;
    let sum = 0;
    let end = first;
    for (let i = first; i < n && lo[i]! <= t; i++, end++) {
      const xi = x[i]!;
      const e = emit[i]!;
      const al = alpha[i]!;
      const o = (t - lo[i]!) * 3;
      let p0 = 0;
      let p1 = 0;
      let p2 = 0;
      if (t > lo[i]!) {
        p0 = al[o - 3]!;
        p1 = al[o - 2]!;
        p2 = al[o - 1]!;
      }
      let enter = 0;
      if (i === 0) enter = t === 0 ? 1 : 0;
      else if (t > 0 && t - 1 >= lo[i - 1]! && t - 1 <= hi[i - 1]!) {
        const ap = alpha[i - 1]!;
        const q = (t - 1 - lo[i - 1]!) * 3;
        const xp = x[i - 1]!;
        enter = ap[q]! * xp[3]! + ap[q + 1]! * xp[7]! + ap[q + 2]! * xp[11]!;
      }
      const a0 = (p0 * xi[0]! + enter) * e[o]!;
      const a1 = (p1 * xi[5]! + p0 * xi[1]!) * e[o + 1]!;
      const a2 = (p2 * xi[10]! + p1 * xi[6]! + p0 * xi[2]!) * e[o + 2]!;
      al[o] = a0;
      al[o + 1] = a1;
      al[o + 2] = a2;
      sum += a0 + a1 + a2;
    }
    if (sum > 0) {
      frameSum[t] = sum;
      for (let i = first; i < end; i++) {
        const o = (t - lo[i]!) * 3;
        const al = alpha[i]!;
        al[o] = al[o]! / sum;
        al[o + 1] = al[o + 1]! / sum;
        al[o + 2] = al[o + 2]! / sum;
      }
    }
  }
  // backward, under the same scales
  let last = n - 1;
  for (let t = nFrames - 1; t >= 0; t--) {
    while (last >= 0 && lo[last]! > t) last--;
    const s = t + 1 < nFrames ? frameSum[t + 1]! : 1;
    for (let i = last; i >= 0 && hi[i]! >= t; i--) {
      const xi = x[i]!;
      const o = (t - lo[i]!) * 3;
      const bt = beta[i]!;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      if (t + 1 <= hi[i]!) {
        const e = emit[i]!;
        s0 = bt[o + 3]! * e[o + 3]!;
        s1 = bt[o + 4]! * e[o + 4]!;
        s2 = bt[o + 5]! * e[o + 5]!;
      }
      let leave = 0;
      if (i === n - 1) leave = t === nFrames - 1 ? 1 : 0;
      else if (t + 1 >= lo[i + 1]! && t + 1 <= hi[i + 1]!) {
        const q = (t + 1 - lo[i + 1]!) * 3;
        leave = beta[i + 1]![q]! * emit[i + 1]![q]!;
      }
      bt[o] = (xi[0]! * s0 + xi[1]! * s1 + xi[2]! * s2 + xi[3]! * leave) / s;
      bt[o + 1] = (xi[5]! * s1 + xi[6]! * s2 + xi[7]! * leave) / s;
      bt[o + 2] = (xi[10]! * s2 + xi[11]! * leave) / s;
    }
  }
  // start posteriors: leave phone i-1 at the end of frame t-1, enter phone i at frame t
  const out: BoundaryPosterior[] = [{ mean: 0, sd: 0 }];
  for (let i = 1; i < n; i++) {
    let z = 0;
    let s1 = 0;
    let s2 = 0;
    const xp = x[i - 1]!;
    const ap = alpha[i - 1]!;
    for (let t = Math.max(lo[i]!, lo[i - 1]! + 1); t <= Math.min(hi[i]!, hi[i - 1]! + 1); t++) {
      const q = (t - 1 - lo[i - 1]!) * 3;
      const leave = ap[q]! * xp[3]! + ap[q + 1]! * xp[7]! + ap[q + 2]! * xp[11]!;
      const o = (t - lo[i]!) * 3;
      const p = (leave * emit[i]![o]! * beta[i]![o]!) / frameSum[t]!;
      z += p;
      s1 += p * t;
      s2 += p * t * t;
    }
    if (!(z > 0)) {
      out.push({ mean: phones[i]!.start, sd: 0 });
      continue;
    }
    const mean = s1 / z;
    out.push({ mean, sd: Math.sqrt(Math.max(0, s2 / z - mean * mean)) });
  }
  return out;
}
