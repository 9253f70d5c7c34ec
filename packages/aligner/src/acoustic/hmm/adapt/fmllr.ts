// Feature-space speaker adaptation (constrained MLLR, Gales 1998): one affine transform per feature
// stream, x' = A x + b, chosen to maximise the likelihood of a recording's frames under the states a first
// search put them in. It moves the speaker's and the channel's features towards what the model was
// trained on, so the same Gaussians, the same scoring kernel and the same search serve the second pass.
//
// Statistics: for each frame on the path, each of its senone's top densities (per stream) with its
// posterior γ within the senone's mixture. Row i of stream f's transform, w_i = [b_i, A_i], maximises
//   β log |p_i · w_i| - ½ w_i G_i w_iᵀ + w_i k_iᵀ
// with β the frames counted, p_i the extended cofactor row of A, G_i = Σ γ/σ²_i ζζᵀ, k_i = Σ γ μ_i/σ²_i ζ
// and ζ = [1, x]. Rows are updated in turn, a few sweeps (the cofactors change as A does).
//
// Little speech estimates a full matrix poorly: with fewer frames than FULL_MIN, only the diagonal of A and
// the bias are estimated; and the estimate is interpolated with the identity, PRIOR_FRAMES frames' weight
// against the data's.
import type { AcousticModel } from '../model/acoustic-model.ts';
import type { Features } from '../frontend/features.ts';
import type { GaussianTopN } from '../scoring/gaussians.ts';
import { TOP_N, densityOffset } from '../scoring/gaussians.ts';
import { UNIT_NATS } from '../scoring/senones.ts';
import { nativeAddon } from '../../../native/addon.ts';

/** Frames below which only the diagonal and the bias of each stream's matrix are estimated. */
export const FULL_MIN = 1500;
/** Weight (in frames) of the identity transform the estimate is drawn towards. */
export const PRIOR_FRAMES = 200;
/** Row sweeps of the estimation. */
const SWEEPS = 8;

/** One affine transform per stream: A row-major (d x d) and b (d). */
export interface FeatureTransform {
  streams: { a: Float64Array; b: Float64Array }[];
  /** frames the estimate rests on */
  frames: number;
  /** a stable identity (scored windows are cached by content and transform) */
  id: string;
  /** the batch CMN mean of the frames it was fitted to, when they were another window's (SpeakerBlocks) */
  cmn?: Float64Array;
}

/** Per model: 1/σ² and μ/σ² of every density dimension (computed once). */
const PRECISIONS = new WeakMap<AcousticModel, { invVar: Float64Array; meanOverVar: Float64Array }>();

/** Sufficient statistics for the transforms, accumulated frame by frame along a path. */
export class AdaptationStats {
  /** per stream: per row, the (d+1)² matrix G_i then the (d+1) vector k_i */
  readonly g: Float64Array[];
  readonly k: Float64Array[];
  frames = 0;
  private readonly invVar: Float64Array;
  private readonly meanOverVar: Float64Array;

  constructor(readonly m: AcousticModel) {
    this.g = m.streamLengths.map((d) => new Float64Array(d * (d + 1) * (d + 1)));
    this.k = m.streamLengths.map((d) => new Float64Array(d * (d + 1)));
    let pre = PRECISIONS.get(m);
    if (!pre) {
      pre = {
        invVar: new Float64Array(m.variances.length),
        meanOverVar: new Float64Array(m.variances.length),
      };
      for (let i = 0; i < m.variances.length; i++) {
        pre.invVar[i] = 1 / m.variances[i]!;
        pre.meanOverVar[i] = m.means[i]! / m.variances[i]!;
      }
      PRECISIONS.set(m, pre);
    }
    this.invVar = pre.invVar;
    this.meanOverVar = pre.meanOverVar;
  }

  /** Frame t of `feats`, spent in model senone `senone` (top densities from `topn`), with weight `gamma`. */
  add(feats: Features, topn: GaussianTopN, t: number, senone: number, gamma = 1): void {
    const m = this.m;
    const cb = m.mdef.senoneCi[senone]!;
    const nStreams = m.nStreams;
    const frameBase = t * nStreams * topn.nCodebooks * TOP_N;
    const post = POST;
    for (let f = 0; f < nStreams; f++) {
      const d = m.streamLengths[f]!;
      const o = frameBase + (f * topn.nCodebooks + cb) * TOP_N;
      const mixBase = (senone * nStreams + f) * m.nDensities;
      // posteriors of the top densities within the senone's mixture
      let best = -Infinity;
      for (let j = 0; j < TOP_N; j++) {
        post[j] = topn.ll[o + j]! - m.mixw[mixBase + topn.cw[o + j]!]! * UNIT_NATS;
        if (post[j]! > best) best = post[j]!;
      }
      let sum = 0;
      for (let j = 0; j < TOP_N; j++) sum += post[j] = Math.exp(post[j]! - best);
      if (wgScratch.length < d) {
        wgScratch = new Float64Array(d);
        wkScratch = new Float64Array(d);
      }
      const wg = wgScratch;
      const wk = wkScratch;
      for (let i = 0; i < d; i++) {
        // this frame's weights for row i: Σ γ_j / σ²_ji and Σ γ_j μ_ji / σ²_ji
        let g = 0;
        let k = 0;
        for (let j = 0; j < TOP_N; j++) {
          const at = densityOffset(m, cb, f, topn.cw[o + j]!) + i;
          const gj = (gamma * post[j]!) / sum;
          g += gj * this.invVar[at]!;
          k += gj * this.meanOverVar[at]!;
        }
        wg[i] = g;
        wk[i] = k;
      }
      accumulate ??= nativeAddon()?.fmllrAccumulate ?? accumulateFrame;
      accumulate(this.g[f]!, this.k[f]!, feats.streams[f]!, t * d, d, wg, wk);
    }
    this.frames += gamma;
  }

  /** Adds another set's statistics (of the same model), each weighted by `weight`. */
  merge(other: AdaptationStats, weight = 1): void {
    for (let f = 0; f < this.g.length; f++) {
      const g = this.g[f]!;
      const og = other.g[f]!;
      for (let i = 0; i < g.length; i++) g[i] = g[i]! + weight * og[i]!;
      const k = this.k[f]!;
      const ok = other.k[f]!;
      for (let i = 0; i < k.length; i++) k[i] = k[i]! + weight * ok[i]!;
    }
    this.frames += weight * other.frames;
  }
}

const POST = new Float64Array(TOP_N);
let wgScratch = new Float64Array(64);
let wkScratch = new Float64Array(64);

/**
 * One frame's share of a stream's statistics, the frame being stream[at .. at + d): for every row i,
 * G_i += wg_i ζζᵀ (its upper triangle; the lower is filled when solving) and k_i += wk_i ζ, ζ = [1, x].
 * The reference of the native module's fmllrAccumulate (native/adapt.c), which gives its bits.
 */
export function accumulateFrame(
  g: Float64Array,
  k: Float64Array,
  stream: Float32Array,
  at: number,
  d: number,
  wg: Float64Array,
  wk: Float64Array,
): void {
  const n = d + 1;
  for (let i = 0; i < d; i++) {
    const w = wg[i]!;
    const gi = i * n * n;
    g[gi] = g[gi]! + w;
    for (let c = 1; c < n; c++) g[gi + c] = g[gi + c]! + w * stream[at + c - 1]!;
    for (let r = 1; r < n; r++) {
      const xr = w * stream[at + r - 1]!;
      const row = gi + r * n;
      for (let c = r; c < n; c++) g[row + c] = g[row + c]! + xr * stream[at + c - 1]!;
    }
    const v = wk[i]!;
    const ki = i * n;
    k[ki] = k[ki]! + v;
    for (let c = 1; c < n; c++) k[ki + c] = k[ki + c]! + v * stream[at + c - 1]!;
  }
}

/**
 * The accumulation this thread runs, chosen on first use: the native module's (the same bits) where it is
 * built, else accumulateFrame.
 */
let accumulate: typeof accumulateFrame | null = null;

/** The transforms that best fit the statistics (identity where a stream's system cannot be solved). */
export function estimateTransform(stats: AdaptationStats): FeatureTransform {
  const m = stats.m;
  const full = stats.frames >= FULL_MIN;
  const beta = stats.frames;
  const streams = m.streamLengths.map((d, f) => streamTransform(stats, f, d, full));
  let h = 0x811c9dc5;
  for (const s of streams)
    for (const v of [...s.a, ...s.b]) h = Math.imul(h ^ Math.round(v * 1e6), 0x01000193);
  return { streams, frames: beta, id: `fmllr:${Math.round(beta)}:${h >>> 0}` };
}

/**
 * Stream f's transform (d coefficients a frame) from the statistics: full, or diagonal with few frames.
 * (A function of its own, not a callback made by each call: the JIT compiles it once.)
 */
function streamTransform(
  stats: AdaptationStats,
  f: number,
  d: number,
  full: boolean,
): { a: Float64Array; b: Float64Array } {
  const beta = stats.frames;
  const n = d + 1;
  const a = new Float64Array(d * d);
  for (let i = 0; i < d; i++) a[i * d + i] = 1;
  const b = new Float64Array(d);
  if (beta <= 0) return { a, b };
  // G_i symmetric (the statistics keep its upper triangle)
  const gs: Float64Array[] = [];
  const ks: Float64Array[] = [];
  for (let i = 0; i < d; i++) {
    const gi = stats.g[f]!.slice(i * n * n, (i + 1) * n * n);
    for (let r = 0; r < n; r++) for (let c = 0; c < r; c++) gi[r * n + c] = gi[c * n + r]!;
    gs.push(gi);
    ks.push(stats.k[f]!.slice(i * n, (i + 1) * n));
  }
  const betaEff = beta;
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    for (let i = 0; i < d; i++) {
      // the free coefficients of row i: [b_i, A_i] (full) or [b_i, A_ii] (diagonal)
      const idx = full ? Array.from({ length: n }, (_, c) => c) : [0, i + 1];
      const q = idx.length;
      const gSub = new Float64Array(q * q);
      const kSub = new Float64Array(q);
      // coefficients held fixed (diagonal mode: the zero off-diagonals) move into k
      for (let r = 0; r < q; r++) {
        kSub[r] = ks[i]![idx[r]!]!;
        for (let c = 0; c < q; c++) gSub[r * q + c] = gs[i]![idx[r]! * n + idx[c]!]!;
      }
      const inv = invert(gSub, q);
      if (!inv) continue;
      // cofactor row of A (up to scale): column i of A⁻¹
      const aInv = invert(a, d);
      if (!aInv) break;
      const p = new Float64Array(q);
      for (let r = 0; r < q; r++) p[r] = idx[r] === 0 ? 0 : aInv[(idx[r]! - 1) * d + i]!;
      const pG = mulVec(inv, p, q);
      const kG = mulVec(inv, kSub, q);
      const e1 = dot(p, pG);
      const e2 = dot(p, kG);
      if (!(e1 > 0)) continue;
      const disc = Math.sqrt(e2 * e2 + 4 * e1 * betaEff);
      let bestAlpha = 0;
      let bestQ = -Infinity;
      for (const alpha of [(-e2 + disc) / (2 * e1), (-e2 - disc) / (2 * e1)]) {
        const qv = betaEff * Math.log(Math.abs(alpha * e1 + e2)) - 0.5 * alpha * alpha * e1;
        if (qv > bestQ) {
          bestQ = qv;
          bestAlpha = alpha;
        }
      }
      for (let r = 0; r < q; r++) {
        const w = bestAlpha * pG[r]! + kG[r]!;
        if (idx[r] === 0) b[i] = w;
        else a[i * d + idx[r]! - 1] = w;
      }
    }
  }
  // drawn towards the identity: PRIOR_FRAMES frames' worth of it against the data's frames
  const keep = beta / (beta + PRIOR_FRAMES);
  for (let i = 0; i < d * d; i++) a[i] = keep * a[i]! + (1 - keep) * (i % (d + 1) === 0 ? 1 : 0);
  for (let i = 0; i < d; i++) b[i] = keep * b[i]!;
  return { a, b };
}

/** The features with each stream's transform applied (a new object; the input is left as it was). */
export function applyTransform(feats: Features, tf: FeatureTransform): Features {
  // (a loop, not a callback: a function made anew by each call is compiled anew by the JIT once hot)
  const streams: Float32Array[] = [];
  for (let f = 0; f < feats.streams.length; f++) {
    const s = feats.streams[f]!;
    const d = feats.streamLengths[f]!;
    const { a, b } = tf.streams[f]!;
    const out = new Float32Array(s.length);
    for (let t = 0; t < feats.nFrames; t++) {
      const o = t * d;
      for (let i = 0; i < d; i++) {
        let v = b[i]!;
        for (let j = 0; j < d; j++) v += a[i * d + j]! * s[o + j]!;
        out[o + i] = v;
      }
    }
    streams.push(out);
  }
  return { ...feats, streams };
}

/**
 * The transform as applied to frames that had their own window's CMN mean subtracted, when it was fitted
 * to frames that had another mean subtracted (`tf.cmn`): y = A (x + δ) + b, δ the difference of the two
 * means on the static cepstra, so that the frames are read as the fitted ones were. The same identity:
 * a window's content fixes its mean.
 */
export function renormalised(tf: FeatureTransform, feats: Features): FeatureTransform {
  if (!tf.cmn || !feats.cmn) return tf;
  const { mean, statics } = feats.cmn;
  const streams = tf.streams.map(({ a, b }, f) => {
    const idx = statics[f]!;
    const d = idx.length;
    const shifted = Float64Array.from(b);
    for (let i = 0; i < d; i++) {
      let v = 0;
      for (let j = 0; j < d; j++) {
        const c = idx[j]!;
        if (c >= 0) v += a[i * d + j]! * (mean[c]! - tf.cmn![c]!);
      }
      shifted[i] = shifted[i]! + v;
    }
    return { a, b: shifted };
  });
  return { ...tf, streams };
}

function dot(x: Float64Array, y: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]! * y[i]!;
  return s;
}

/** M v for a symmetric or general n x n row-major M. */
function mulVec(mat: Float64Array, v: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let s = 0;
    for (let c = 0; c < n; c++) s += mat[r * n + c]! * v[c]!;
    out[r] = s;
  }
  return out;
}

/** The inverse of an n x n row-major matrix by Gauss-Jordan with partial pivoting; null when singular. */
export function invert(mat: Float64Array, n: number): Float64Array | null {
  const a = Float64Array.from(mat);
  const inv = new Float64Array(n * n);
  for (let i = 0; i < n; i++) inv[i * n + i] = 1;
  let scale = 0;
  for (const v of mat) scale = Math.max(scale, Math.abs(v));
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r * n + c]!) > Math.abs(a[piv * n + c]!)) piv = r;
    if (!(Math.abs(a[piv * n + c]!) > scale * 1e-12)) return null;
    if (piv !== c)
      for (let k = 0; k < n; k++) {
        [a[c * n + k], a[piv * n + k]] = [a[piv * n + k]!, a[c * n + k]!];
        [inv[c * n + k], inv[piv * n + k]] = [inv[piv * n + k]!, inv[c * n + k]!];
      }
    const d = a[c * n + c]!;
    for (let k = 0; k < n; k++) {
      a[c * n + k]! /= d;
      inv[c * n + k]! /= d;
    }
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = a[r * n + c]!;
      if (f === 0) continue;
      for (let k = 0; k < n; k++) {
        a[r * n + k]! -= f * a[c * n + k]!;
        inv[r * n + k]! -= f * inv[c * n + k]!;
      }
    }
  }
  return inv;
}

/**
 * The auxiliary function the estimate maximises, per stream: β log|det A| - ½ Σ_i w_i G_i w_iᵀ + Σ_i w_i k_iᵀ
 * (nats, up to a constant), over the statistics alone (no prior).
 */
export function auxiliary(stats: AdaptationStats, tf: FeatureTransform, m: AcousticModel): number[] {
  return m.streamLengths.map((d, f) => {
    const n = d + 1;
    const { a, b } = tf.streams[f]!;
    let q = stats.frames * Math.log(Math.abs(determinant(a, d)));
    for (let i = 0; i < d; i++) {
      const w = new Float64Array(n);
      w[0] = b[i]!;
      for (let c = 0; c < d; c++) w[c + 1] = a[i * d + c]!;
      const g = stats.g[f]!.subarray(i * n * n, (i + 1) * n * n);
      const k = stats.k[f]!.subarray(i * n, (i + 1) * n);
      for (let r = 0; r < n; r++) {
        q += w[r]! * k[r]!;
        for (let c = 0; c < n; c++) q -= 0.5 * w[r]! * w[c]! * (r <= c ? g[r * n + c]! : g[c * n + r]!);
      }
    }
    return q;
  });
}

/** The determinant of an n x n row-major matrix (LU with partial pivoting). */
export function determinant(mat: Float64Array, n: number): number {
  const a = Float64Array.from(mat);
  let det = 1;
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r * n + c]!) > Math.abs(a[piv * n + c]!)) piv = r;
    const p = a[piv * n + c]!;
    if (p === 0) return 0;
    if (piv !== c) {
      det = -det;
      for (let k = 0; k < n; k++) [a[c * n + k], a[piv * n + k]] = [a[piv * n + k]!, a[c * n + k]!];
    }
    det *= p;
    for (let r = c + 1; r < n; r++) {
      const f = a[r * n + c]! / p;
      for (let k = c; k < n; k++) a[r * n + k] = a[r * n + k]! - f * a[c * n + k]!;
    }
  }
  return det;
}
