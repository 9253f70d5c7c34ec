// Maximum a posteriori (MAP) re-estimation of a phonetically-tied model from aligned speech: each
// Gaussian's mean and variance, and each senone's mixture weights, move from the model's values towards
// what the corpus's frames say, by as much as the corpus has frames for them (Gauvain and Lee, 1994).
// A Gaussian the corpus never visits keeps the model's values; one visited by thousands of frames ends
// near their statistics. The frames come from the decoder's forced paths (decoder.ts collect()): each
// frame in its state's senone, shared among the senone's top densities by their posteriors.
import type { Features } from '../frontend/features.ts';
import type { AcousticModel } from '../model/acoustic-model.ts';
import { SENSCR_UNIT, mixwFromFloats } from '../model/acoustic-model.ts';
import { TOP_N, densityOffset } from '../scoring/gaussians.ts';
import type { GaussianTopN } from '../scoring/gaussians.ts';

/** What a forced path's frames are handed to (speaker transforms, model re-estimation). */
export interface FrameStats {
  add(feats: Features, topn: GaussianTopN, t: number, senone: number, gamma?: number): void;
  /** whether the frames of silences and noises are wanted too (model re-estimation: yes) */
  readonly fillers?: boolean;
}

/**
 * Weight of the model's own values, in frames. 50 rather than the textbook 10: the corpora adapted on
 * are minutes of speech of other speakers (or voices) than those aligned later, and a model kept nearer
 * its base placed their edges as well or better (held apart, τ 10 → 50: timit-dev halves +0.1/0.0 →
 * +0.2/−0.1 ms from transcripts, +2.5/+2.3 → +2.6/+2.5 ms from hand corrections; ar-synthetic 20.6 →
 * 19.6 ms; the real Tunisian speakers 33.8 → 26.8 ms; docs/benchmarks.md, "Models that learn").
 */
export const TAU_GAUSSIAN = 50;
/** ... and of a senone's mixture weights (a senone's data is spread over its 128 densities). */
export const TAU_WEIGHTS = 250;
/** The variance floor of the Sphinx decoders' default (-varfloor 1e-4). */
const VAR_FLOOR = 1e-4;

/** Sufficient statistics for MAP: per density its occupancy and first and second moments, per senone its densities' occupancies. */
export class MapStats implements FrameStats {
  /** [codebook][stream][density] */
  readonly occ: Float64Array;
  /** [codebook][stream][density][dim], the means' layout */
  readonly sum: Float64Array;
  readonly sq: Float64Array;
  /** [senone][stream][density] */
  readonly mix: Float64Array;
  /** frames added (their weights), and the summed log-likelihood of the frames in their senones (nats) */
  frames = 0;
  logLikelihood = 0;
  readonly fillers = true;

  constructor(readonly m: AcousticModel) {
    this.occ = new Float64Array(m.nCodebooks * m.nStreams * m.nDensities);
    this.sum = new Float64Array(m.means.length);
    this.sq = new Float64Array(m.means.length);
    this.mix = new Float64Array(m.mdef.nSenones * m.nStreams * m.nDensities);
  }

  add(feats: Features, topn: GaussianTopN, t: number, senone: number, gamma = 1): void {
    const m = this.m;
    const cb = m.mdef.senoneCi[senone]!;
    const nStreams = m.nStreams;
    const post = new Float64Array(TOP_N);
    const frameBase = t * nStreams * topn.nCodebooks * TOP_N;
    for (let f = 0; f < nStreams; f++) {
      const d = m.streamLengths[f]!;
      const o = frameBase + (f * topn.nCodebooks + cb) * TOP_N;
      const mixBase = (senone * nStreams + f) * m.nDensities;
      let best = -Infinity;
      for (let j = 0; j < TOP_N; j++) {
        post[j] = topn.ll[o + j]! - m.mixw[mixBase + topn.cw[o + j]!]! * SENSCR_UNIT;
        if (post[j]! > best) best = post[j]!;
      }
      let total = 0;
      for (let j = 0; j < TOP_N; j++) total += post[j] = Math.exp(post[j]! - best);
      this.logLikelihood += gamma * (best + Math.log(total));
      const x = feats.streams[f]!.subarray(t * d, t * d + d);
      for (let j = 0; j < TOP_N; j++) {
        const dens = topn.cw[o + j]!;
        const g = (gamma * post[j]!) / total;
        if (g < 1e-6) continue;
        const oi = (cb * nStreams + f) * m.nDensities + dens;
        this.occ[oi] = this.occ[oi]! + g;
        this.mix[mixBase + dens] = this.mix[mixBase + dens]! + g;
        const at = densityOffset(m, cb, f, dens);
        for (let i = 0; i < d; i++) {
          const v = x[i]!;
          this.sum[at + i] = this.sum[at + i]! + g * v;
          this.sq[at + i] = this.sq[at + i]! + g * v * v;
        }
      }
    }
    this.frames += gamma;
  }

  /** Per codebook (CI phone), the frames that reached it: what the report and the refusal read. */
  framesPerCodebook(): Float64Array {
    const m = this.m;
    const out = new Float64Array(m.nCodebooks);
    for (let cb = 0; cb < m.nCodebooks; cb++) {
      let n = 0;
      // stream 0's occupancy counts each frame once
      for (let d = 0; d < m.nDensities; d++) n += this.occ[cb * m.nStreams * m.nDensities + d]!;
      out[cb] = n;
    }
    return out;
  }
}

/** Mixture weights as probabilities [senone][stream][density], from the model's quantised costs. */
export function mixtureProbabilities(m: AcousticModel): Float32Array {
  const out = new Float32Array(m.mixw.length);
  const per = m.nDensities;
  for (let row = 0; row < m.mixw.length / per; row++) {
    let sum = 0;
    for (let d = 0; d < per; d++) sum += out[row * per + d] = Math.exp(-m.mixw[row * per + d]! * SENSCR_UNIT);
    for (let d = 0; d < per; d++) out[row * per + d] = out[row * per + d]! / sum;
  }
  return out;
}

export interface MapOptions {
  tauGaussian?: number;
  tauWeights?: number;
  /**
   * re-estimate variances too (default false: with them, boundaries on held-apart voices got worse,
   * ar-synthetic 23.9 -> 38.8 ms against 20.6 with means and weights only; docs/benchmarks.md)
   */
  variances?: boolean;
  /** re-estimate the means (default true; false: only the mixture weights, e.g. after MLLR alone) */
  means?: boolean;
  /**
   * per codebook, a factor on both priors (τ and τ_w): above 1 keeps its phone nearer the model it
   * came from (an adapted Arabic model: the base's own phones, against the phones cloned for Arabic)
   */
  tauScale?: Float64Array;
}

/** The model's parameters after one MAP step: a new model (the decoder's layout) and its float weights. */
export interface MapResult {
  model: AcousticModel;
  weights: Float32Array;
  /** Gaussians that moved (any frames), of all */
  moved: number;
  gaussians: number;
}

/**
 * One MAP step: means, variances and mixture weights pulled towards the statistics. `weights` are the
 * current model's mixture weights as probabilities (the quantised costs lose the small ones' precision).
 */
export function mapUpdate(
  m: AcousticModel,
  stats: MapStats,
  weights: Float32Array,
  opts: MapOptions = {},
): MapResult {
  const tau0 = opts.tauGaussian ?? TAU_GAUSSIAN;
  const tauW = opts.tauWeights ?? TAU_WEIGHTS;
  const means = new Float32Array(m.means);
  const variances = new Float32Array(m.variances);
  let moved = 0;
  const reMeans = opts.means !== false;
  for (let cb = 0; cb < m.nCodebooks; cb++) {
    const tau = tau0 * (opts.tauScale?.[cb] ?? 1);
    for (let f = 0; f < m.nStreams; f++)
      for (let d = 0; d < m.nDensities; d++) {
        const n = stats.occ[(cb * m.nStreams + f) * m.nDensities + d]!;
        if (n <= 0 || !Number.isFinite(tau)) continue;
        moved++;
        const at = densityOffset(m, cb, f, d);
        for (let i = 0; i < m.streamLengths[f]!; i++) {
          const mu0 = m.means[at + i]!;
          const s0 = m.variances[at + i]!;
          const mu = reMeans ? (tau * mu0 + stats.sum[at + i]!) / (tau + n) : mu0;
          means[at + i] = mu;
          if (opts.variances === true) {
            // the prior's second moment and the data's, about the new mean
            const second = (tau * (s0 + mu0 * mu0) + stats.sq[at + i]!) / (tau + n);
            variances[at + i] = Math.max(VAR_FLOOR, second - mu * mu);
          }
        }
      }
  }
  const out = new Float32Array(weights.length);
  const per = m.nDensities;
  for (let row = 0; row < weights.length / per; row++) {
    const tw = tauW * (opts.tauScale?.[m.mdef.senoneCi[Math.floor(row / m.nStreams)]!] ?? 1);
    let n = 0;
    for (let d = 0; d < per; d++) n += stats.mix[row * per + d]!;
    for (let d = 0; d < per; d++)
      out[row * per + d] = !Number.isFinite(tw)
        ? weights[row * per + d]!
        : (tw * weights[row * per + d]! + stats.mix[row * per + d]!) / (tw + n);
  }
  const mixw = mixwFromFloats(out, m.mdef.nSenones, m.nStreams, m.nDensities, 1e-7);
  return {
    model: { ...m, means, variances, mixw },
    weights: out,
    moved,
    gaussians: m.nCodebooks * m.nStreams * m.nDensities,
  };
}
