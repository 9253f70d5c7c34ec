// Model-space maximum-likelihood linear regression of the means (MLLR, Leggetter and Woodland 1995):
// one affine transform per regression class and feature stream, μ' = A μ + b, shared by every Gaussian of
// the class, chosen to maximise the likelihood of the corpus's frames under the forced paths. Where MAP
// moves only the Gaussians the corpus visited, each by as much as it was visited, a shared transform
// moves all of them coherently (a channel, a corpus's speaking style), the unvisited ones too. It is
// stored in the adapted model's means (and composes with the per-window feature transform of fmllr.ts,
// which works on the features at alignment time). MAP then starts from the transformed means.
//
// With diagonal covariances each row i of W = [b, A] has its own normal equations:
//   G_i = Σ_g (n_g / σ²_gi) ξ_g ξ_gᵀ,  k_i = Σ_g (s_gi / σ²_gi) ξ_g,  w_i = G_i⁻¹ k_i
// with ξ_g = [1, μ_g], n_g the Gaussian's occupancy and s_g its first moment (MapStats holds both).
import type { AcousticModel } from '../model/acoustic-model.ts';
import { densityOffset } from '../scoring/gaussians.ts';
import { invert } from './fmllr.ts';
import type { MapStats } from './map.ts';
import type { BroadClass } from './edges.ts';

/** Frames a regression class needs for a transform of its own (else its parent's, the global one). */
export const MLLR_MIN_FRAMES = 1000;
/** Weight (frames) of the identity the estimate is drawn towards. */
export const MLLR_PRIOR_FRAMES = 200;

/** Regression classes: one for all; speech and the fillers apart; broad phone classes. */
export type MllrClasses = 'none' | 'global' | 'speech-silence' | 'broad';

export interface MllrTransform {
  /** per stream: A (d x d, row-major) and b */
  streams: { a: Float64Array; b: Float64Array }[];
  frames: number;
}

export interface MllrResult {
  means: Float32Array;
  /** per class: its name, frames and whether it had its own transform (else the global one) */
  classes: { name: string; frames: number; own: boolean }[];
}

/**
 * Each codebook's regression class (an index into the returned names), from the model phones' broad
 * classes (edges.ts phoneClasses) and which CI phones are fillers.
 */
export function regressionClasses(
  kind: MllrClasses,
  ciPhones: readonly string[],
  filler: readonly boolean[],
  classes: Record<string, BroadClass>,
): { names: string[]; of: Int32Array } {
  const of = new Int32Array(ciPhones.length);
  if (kind === 'global' || kind === 'none') return { names: ['all'], of };
  if (kind === 'speech-silence') {
    ciPhones.forEach((_, i) => (of[i] = filler[i] ? 1 : 0));
    return { names: ['speech', 'silence'], of };
  }
  const names: string[] = ['silence'];
  ciPhones.forEach((p, i) => {
    const name = filler[i] ? 'silence' : (classes[p] ?? 'X');
    let k = names.indexOf(name);
    if (k < 0) k = names.push(name) - 1;
    of[i] = k;
  });
  return { names, of };
}

/** Estimates one transform from the statistics of the codebooks `inClass` says (identity when singular). */
export function estimateMllr(
  m: AcousticModel,
  stats: Pick<MapStats, 'occ' | 'sum'>,
  inClass: (codebook: number) => boolean,
  priorFrames = MLLR_PRIOR_FRAMES,
): MllrTransform {
  let frames = 0;
  for (let cb = 0; cb < m.nCodebooks; cb++) {
    if (!inClass(cb)) continue;
    // stream 0's occupancy counts each frame once
    for (let d = 0; d < m.nDensities; d++) frames += stats.occ[cb * m.nStreams * m.nDensities + d]!;
  }
  const streams = m.streamLengths.map((dim, f) => {
    const n = dim + 1;
    const a = new Float64Array(dim * dim);
    for (let i = 0; i < dim; i++) a[i * dim + i] = 1;
    const b = new Float64Array(dim);
    if (frames <= 0) return { a, b };
    const g = new Float64Array(dim * n * n);
    const k = new Float64Array(dim * n);
    const xi = new Float64Array(n);
    xi[0] = 1;
    for (let cb = 0; cb < m.nCodebooks; cb++) {
      if (!inClass(cb)) continue;
      for (let d = 0; d < m.nDensities; d++) {
        const occ = stats.occ[(cb * m.nStreams + f) * m.nDensities + d]!;
        if (!(occ > 0)) continue;
        const at = densityOffset(m, cb, f, d);
        for (let c = 0; c < dim; c++) xi[c + 1] = m.means[at + c]!;
        for (let i = 0; i < dim; i++) {
          const iv = 1 / m.variances[at + i]!;
          const w = occ * iv;
          const gi = i * n * n;
          for (let r = 0; r < n; r++) {
            const wr = w * xi[r]!;
            for (let c = r; c < n; c++) g[gi + r * n + c] = g[gi + r * n + c]! + wr * xi[c]!;
          }
          const s = stats.sum[at + i]! * iv;
          for (let r = 0; r < n; r++) k[i * n + r] = k[i * n + r]! + s * xi[r]!;
        }
      }
    }
    const keep = frames / (frames + priorFrames);
    for (let i = 0; i < dim; i++) {
      const gi = g.slice(i * n * n, (i + 1) * n * n);
      for (let r = 0; r < n; r++) for (let c = 0; c < r; c++) gi[r * n + c] = gi[c * n + r]!;
      const inv = invert(gi, n);
      if (!inv) continue;
      const ki = k.subarray(i * n, (i + 1) * n);
      for (let r = 0; r < n; r++) {
        let w = 0;
        for (let c = 0; c < n; c++) w += inv[r * n + c]! * ki[c]!;
        // drawn towards the identity row by priorFrames frames
        const ident = r === i + 1 ? 1 : 0;
        const v = keep * w + (1 - keep) * ident;
        if (r === 0) b[i] = v;
        else a[i * dim + r - 1] = v;
      }
    }
    return { a, b };
  });
  return { streams, frames };
}

/** The means with each codebook's class transform applied (every density of the codebook). */
export function applyMllr(
  m: AcousticModel,
  means: Float32Array,
  transformOf: (codebook: number) => MllrTransform | null,
): Float32Array {
  const out = new Float32Array(means);
  for (let cb = 0; cb < m.nCodebooks; cb++) {
    const t = transformOf(cb);
    if (!t) continue;
    for (let f = 0; f < m.nStreams; f++) {
      const dim = m.streamLengths[f]!;
      const { a, b } = t.streams[f]!;
      for (let d = 0; d < m.nDensities; d++) {
        const at = densityOffset(m, cb, f, d);
        for (let i = 0; i < dim; i++) {
          let v = b[i]!;
          for (let j = 0; j < dim; j++) v += a[i * dim + j]! * means[at + j]!;
          out[at + i] = v;
        }
      }
    }
  }
  return out;
}

/**
 * The regression step: a transform per class with frames enough (MLLR_MIN_FRAMES), else the global
 * one, applied to every Gaussian of the model.
 */
export function mllrUpdate(
  m: AcousticModel,
  stats: Pick<MapStats, 'occ' | 'sum'>,
  classes: { names: string[]; of: Int32Array },
  minFrames = MLLR_MIN_FRAMES,
): MllrResult {
  const global = estimateMllr(m, stats, () => true);
  const per = classes.names.map((_, k) =>
    classes.names.length === 1 ? global : estimateMllr(m, stats, (cb) => classes.of[cb] === k),
  );
  const own = per.map((t) => t.frames >= minFrames);
  const chosen = per.map((t, k) => (own[k] ? t : global.frames >= minFrames ? global : null));
  return {
    means: applyMllr(m, m.means, (cb) => chosen[classes.of[cb]!] ?? null),
    classes: classes.names.map((name, k) => ({
      name,
      frames: Math.round(per[k]!.frames),
      own: own[k]!,
    })),
  };
}
