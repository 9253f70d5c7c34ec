// TAZAMUN_EMULATE=pocketsphinx only (the parity tests): the Gaussian densities as pocketsphinx scores them.
// Its Gaussian parameters are quantised where it loads the model (gauden_dist_precompute): each
// dimension's log normaliser, log(1 / sqrt(2 pi var)) in base 1.0001, is truncated to an integer before
// they are summed, and each 1 / (2 var) is kept in base-1.0001 units truncated to an integer. A density's
// score is then det - sum((x - mean)^2 * ivar) in single precision, dimension after dimension, truncated
// to an integer (ptm_mgau.c). Against the exact parameters this decoder scores with, 68 % of the top-4
// scores of a TIMIT file differ after the shift to search units (by 1 unit mostly, up to 15), and 3.5 %
// of the top-4 densities are other densities.
//
// The top 4 of each codebook are chosen on one matrix product per stream over these parameters
// (onnxruntime, as the default kernel does; or a JavaScript loop where it cannot load), then the 4 are
// scored again in pocketsphinx's arithmetic: the matrix product's rounding only decides between
// densities within about a unit of each other.
import type { AcousticModel } from '../model/acoustic-model.ts';
import type { Features } from '../frontend/features.ts';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { nativeCall } from '../../../native-guard.ts';
import { encodeOnnxModel } from '../../../onnx/encode.ts';
import { onnxRuntime, type Ort } from '../../../onnx/runtime.ts';
import { TOP_N, augmentedFrames, densityOffset } from './gaussians.ts';

/** The top-N densities as pocketsphinx holds them before normalising, [frame][stream][codebook][TOP_N]. */
export interface SphinxDensities {
  /** the integer score shifted right by 10 bits (the search's units), best first */
  units: Int32Array;
  /** the density indices */
  cw: Uint8Array;
}

const INV_LN_BASE = 1 / Math.log(1.0001);
const f32 = Math.fround;
const MAX_NEG_INT32 = -2147483648;
const BLOCK = 64;

export class SphinxGaussians {
  private constructor(
    private readonly m: AcousticModel,
    /** per density: the summed truncated log normalisers, [codebook][stream][density] */
    private readonly det: Float32Array,
    /** per dimension: 1 / (2 var) in base-1.0001 units, truncated (the variances' layout) */
    private readonly ivar: Float32Array,
    private readonly ort: { ort: Ort; session: InferenceSession } | null,
  ) {}

  static async create(m: AcousticModel, useOnnx = process.env.TAZAMUN_GMM_KERNEL !== 'js') {
    const { nCodebooks, nStreams, nDensities, streamLengths } = m;
    const det = new Float32Array(nCodebooks * nStreams * nDensities);
    const ivar = new Float32Array(m.variances.length);
    for (let cb = 0; cb < nCodebooks; cb++)
      for (let f = 0; f < nStreams; f++)
        for (let d = 0; d < nDensities; d++) {
          const o = densityOffset(m, cb, f, d);
          let s = 0;
          for (let j = 0; j < streamLengths[f]!; j++) {
            const v = m.variances[o + j]!;
            s = f32(s + Math.trunc(Math.log(1 / Math.sqrt(v * 2 * Math.PI)) * INV_LN_BASE));
            ivar[o + j] = Math.trunc((1 / (v * 2)) * INV_LN_BASE);
          }
          det[(cb * nStreams + f) * nDensities + d] = s;
        }
    let ort: { ort: Ort; session: InferenceSession } | null = null;
    if (useOnnx) {
      try {
        ort = await onnxSession(m, det, ivar);
      } catch {
        ort = null;
      }
    }
    return new SphinxGaussians(m, det, ivar, ort);
  }

  /** One density's score in pocketsphinx's arithmetic (before the shift). */
  private score(x: Float32Array, xo: number, cb: number, f: number, d: number): number {
    const m = this.m;
    const len = m.streamLengths[f]!;
    const o = densityOffset(m, cb, f, d);
    let s = this.det[(cb * m.nStreams + f) * m.nDensities + d]!;
    for (let j = 0; j < len; j++) {
      const diff = f32(x[xo + j]! - m.means[o + j]!);
      s = f32(s - f32(f32(diff * diff) * this.ivar[o + j]!));
    }
    return s < MAX_NEG_INT32 ? MAX_NEG_INT32 : Math.trunc(s);
  }

  async densities(feats: Features): Promise<SphinxDensities> {
    const m = this.m;
    const { nCodebooks, nStreams, nDensities, streamLengths } = m;
    const nFrames = feats.nFrames;
    const perFrame = nStreams * nCodebooks * TOP_N;
    const units = new Int32Array(nFrames * perFrame);
    const cw = new Uint8Array(nFrames * perFrame);
    const cols = nCodebooks * nDensities;
    const best = new Int32Array(TOP_N);
    const bestScore = new Float64Array(TOP_N);
    for (let t0 = 0; t0 < nFrames; t0 += BLOCK) {
      const n = Math.min(BLOCK, nFrames - t0);
      // approximate scores of every density (the matrix products), to choose the 4 of each codebook
      let approx: Float32Array[] | null = null;
      if (this.ort) {
        const { ort, session } = this.ort;
        const feeds: Record<string, Tensor> = {};
        streamLengths.forEach((len, f) => {
          feeds[`x${f}`] = new ort.Tensor('float32', augmentedFrames(feats.streams[f]!, len, t0, n), [
            n,
            2 * len + 1,
          ]);
        });
        const res = await nativeCall(() => session.run(feeds));
        approx = streamLengths.map((_, f) => res[`y${f}`]!.data as Float32Array);
      }
      for (let t = 0; t < n; t++) {
        for (let f = 0; f < nStreams; f++) {
          const x = feats.streams[f]!;
          const xo = (t0 + t) * streamLengths[f]!;
          for (let cb = 0; cb < nCodebooks; cb++) {
            bestScore.fill(-Infinity);
            best.fill(-1);
            for (let d = 0; d < nDensities; d++) {
              const v = approx ? approx[f]![t * cols + cb * nDensities + d]! : this.score(x, xo, cb, f, d);
              if (v <= bestScore[TOP_N - 1]!) continue;
              let i = TOP_N - 1;
              while (i > 0 && v > bestScore[i - 1]!) {
                bestScore[i] = bestScore[i - 1]!;
                best[i] = best[i - 1]!;
                i--;
              }
              bestScore[i] = v;
              best[i] = d;
            }
            // the chosen 4 in pocketsphinx's arithmetic, best first
            if (approx) for (let i = 0; i < TOP_N; i++) bestScore[i] = this.score(x, xo, cb, f, best[i]!);
            const o = (((t0 + t) * nStreams + f) * nCodebooks + cb) * TOP_N;
            const order = [0, 1, 2, 3].sort((a, b) => bestScore[b]! - bestScore[a]! || a - b);
            for (let i = 0; i < TOP_N; i++) {
              units[o + i] = Math.floor(bestScore[order[i]!]! / 1024);
              cw[o + i] = best[order[i]!]!;
            }
          }
        }
      }
    }
    return { units, cw };
  }
}

/** One matrix product per stream over the quantised parameters: scores in base-1.0001 units. */
async function onnxSession(
  m: AcousticModel,
  det: Float32Array,
  ivar: Float32Array,
): Promise<{ ort: Ort; session: InferenceSession }> {
  const ort = await onnxRuntime();
  const { nCodebooks, nStreams, nDensities, streamLengths } = m;
  const cols = nCodebooks * nDensities;
  const weights = streamLengths.map((len, f) => {
    const w = new Float32Array((2 * len + 1) * cols);
    for (let cb = 0; cb < nCodebooks; cb++)
      for (let d = 0; d < nDensities; d++) {
        const col = cb * nDensities + d;
        const o = densityOffset(m, cb, f, d);
        let c = det[(cb * nStreams + f) * nDensities + d]!;
        for (let j = 0; j < len; j++) {
          const mu = m.means[o + j]!;
          const q = ivar[o + j]!;
          w[j * cols + col] = 2 * q * mu;
          w[(len + j) * cols + col] = -q;
          c -= q * mu * mu;
        }
        w[2 * len * cols + col] = c;
      }
    return w;
  });
  const model = encodeOnnxModel({
    nodes: streamLengths.map((_, f) => ({ op: 'MatMul', inputs: [`x${f}`, `w${f}`], outputs: [`y${f}`] })),
    initializers: streamLengths.map((len, f) => ({
      name: `w${f}`,
      dims: [2 * len + 1, cols],
      data: weights[f]!,
    })),
    inputs: streamLengths.map((len, f) => ({ name: `x${f}`, shape: ['T', 2 * len + 1] })),
    outputs: streamLengths.map((_, f) => ({ name: `y${f}`, shape: ['T', cols] })),
  });
  const session = await nativeCall(() =>
    ort.InferenceSession.create(model, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    }),
  );
  return { ort, session };
}

const made = new WeakMap<AcousticModel, Promise<SphinxGaussians>>();

/** The model's pocketsphinx-style Gaussians, made once per model. */
export function sphinxGaussians(m: AcousticModel): Promise<SphinxGaussians> {
  let g = made.get(m);
  if (!g) {
    g = SphinxGaussians.create(m);
    made.set(m, g);
  }
  return g;
}
