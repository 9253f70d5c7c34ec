// The Gaussians of a phonetically-tied model, scored on every frame: each codebook's best few densities per
// feature stream (top-N, as the Sphinx decoders keep them). Three kernels compute the same thing:
// - native (native/gmm.c, built at install where there is a C compiler): 16 or 8 frames to a vector
//   (AVX-512 or AVX2), the top-N kept by a branch-free insertion network; a quarter to a third of
//   onnxruntime's CPU (ADR 0102);
// - onnxruntime: a diagonal Gaussian's log-likelihood is linear in [x, x², 1], so every density of every
//   codebook on a block of frames is one matrix product per stream, then a TopK (the fallback);
// - JavaScript, in double precision: the reference the tests compare with, and the last resort.
import type { AcousticModel } from '../model/acoustic-model.ts';
import type { Features } from '../frontend/features.ts';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { nativeCall } from '../../../native-guard.ts';
import { encodeOnnxModel } from '../../../onnx/encode.ts';
import { onnxRuntime, type Ort } from '../../../onnx/runtime.ts';
import { nativeAddon, nativeAddonMissing, type NativeAddon } from '../../../native/addon.ts';

/** Densities kept per codebook and stream (the Sphinx decoders' -topn default). */
export const TOP_N = 4;

/** Each codebook's TOP_N best densities per stream and frame, best first. */
export interface GaussianTopN {
  nFrames: number;
  nStreams: number;
  nCodebooks: number;
  /** log-likelihoods in nats, [frame][stream][codebook][TOP_N] */
  ll: Float32Array;
  /** density (codeword) indices, same layout */
  cw: Uint8Array;
}

/** Room for a window's top-N (GaussianTopN.ll and .cw), at least as long as the window needs. */
export interface TopNBuffers {
  ll: Float32Array;
  cw: Uint8Array;
}

export interface GaussianKernel {
  readonly name: 'native' | 'onnx' | 'js';
  /** the top-N of every frame, written into `into` when given (else into new arrays) */
  topN(features: Features, into?: TopNBuffers): Promise<GaussianTopN>;
  /**
   * topN, and the density costs into `dens` in the same pass (the native kernel; senones.ts's
   * topNAndCosts() calls it, or topN and densityCosts where a kernel has no such pass)
   */
  topNWithCosts?(
    features: Features,
    into: TopNBuffers,
    dens: Uint8Array | undefined,
    units: { lnBase: number; maxNeg: number },
  ): Promise<{ topn: GaussianTopN; dens: Uint8Array }>;
}

/** Frames per matrix product: small enough for the products to stay in cache (64: half the CPU of 256). */
const BLOCK = 64;

/** Where density d of codebook cb, stream f starts in the means and variances ([cb][f][d][dim] order). */
export function densityOffset(m: AcousticModel, cb: number, f: number, d: number): number {
  let streamStart = 0;
  let blk = 0;
  for (let i = 0; i < m.nStreams; i++) {
    if (i < f) streamStart += m.streamLengths[i]!;
    blk += m.streamLengths[i]!;
  }
  return cb * m.nDensities * blk + m.nDensities * streamStart + d * m.streamLengths[f]!;
}

/**
 * Frames t0..t0+n of one stream as the rows `[x, x², 1]` the Gaussians' linear weights multiply (a
 * diagonal Gaussian's log-likelihood is linear in them).
 */
export function augmentedFrames(src: Float32Array, len: number, t0: number, n: number): Float32Array {
  const k = 2 * len + 1;
  const x = new Float32Array(n * k);
  for (let t = 0; t < n; t++) {
    for (let j = 0; j < len; j++) {
      const v = src[(t0 + t) * len + j]!;
      x[t * k + j] = v;
      x[t * k + len + j] = v * v;
    }
    x[t * k + 2 * len] = 1;
  }
  return x;
}

/** [x, x², 1] weights per stream: rows (mean/var, -1/2var, constant) x densities of every codebook. */
function linearWeights(m: AcousticModel): Float32Array[] {
  const { nCodebooks, nDensities, streamLengths } = m;
  return streamLengths.map((len, f) => {
    const cols = nCodebooks * nDensities;
    const w = new Float32Array((2 * len + 1) * cols);
    for (let cb = 0; cb < nCodebooks; cb++) {
      for (let d = 0; d < nDensities; d++) {
        const col = cb * nDensities + d;
        const o = densityOffset(m, cb, f, d);
        let c = 0;
        for (let j = 0; j < len; j++) {
          const mu = m.means[o + j]!;
          const v = m.variances[o + j]!;
          w[j * cols + col] = mu / v;
          w[(len + j) * cols + col] = -0.5 / v;
          c += -0.5 * Math.log(2 * Math.PI * v) - (mu * mu) / (2 * v);
        }
        w[2 * len * cols + col] = c;
      }
    }
    return w;
  });
}

/** Keeps the TOP_N largest of `n` values starting at `from`, best first (TOP_N = 4, unrolled). */
function top4(y: Float32Array, from: number, n: number, ll: Float32Array, cw: Uint8Array, o: number): void {
  let v0 = -Infinity;
  let v1 = -Infinity;
  let v2 = -Infinity;
  let v3 = -Infinity;
  let i0 = -1;
  let i1 = -1;
  let i2 = -1;
  let i3 = -1;
  for (let g = 0; g < n; g++) {
    const v = y[from + g]!;
    if (v <= v3) continue;
    if (v > v1) {
      v3 = v2;
      i3 = i2;
      v2 = v1;
      i2 = i1;
      if (v > v0) {
        v1 = v0;
        i1 = i0;
        v0 = v;
        i0 = g;
      } else {
        v1 = v;
        i1 = g;
      }
    } else if (v > v2) {
      v3 = v2;
      i3 = i2;
      v2 = v;
      i2 = g;
    } else {
      v3 = v;
      i3 = g;
    }
  }
  ll[o] = v0;
  ll[o + 1] = v1;
  ll[o + 2] = v2;
  ll[o + 3] = v3;
  cw[o] = i0;
  cw[o + 1] = i1;
  cw[o + 2] = i2;
  cw[o + 3] = i3;
}

/** Values per frame of a model's top-N (GaussianTopN.ll and .cw). */
export function topNPerFrame(m: AcousticModel): number {
  return m.nStreams * m.nCodebooks * TOP_N;
}

/**
 * A window's top-N arrays: views of `into` when it is long enough (every value is written before it is
 * read, so a reused buffer's old contents never show), else new arrays.
 */
function emptyTopN(m: AcousticModel, nFrames: number, into?: TopNBuffers): GaussianTopN {
  const n = nFrames * topNPerFrame(m);
  const fits = into && into.ll.length >= n && into.cw.length >= n;
  return {
    nFrames,
    nStreams: m.nStreams,
    nCodebooks: m.nCodebooks,
    ll: fits ? into.ll.subarray(0, n) : new Float32Array(n),
    cw: fits ? into.cw.subarray(0, n) : new Uint8Array(n),
  };
}

/** The reference kernel: every density in double precision, directly from means and variances. */
export class JsGaussianKernel implements GaussianKernel {
  readonly name = 'js' as const;
  private readonly det: Float64Array;
  private readonly inv2var: Float64Array;

  constructor(private readonly m: AcousticModel) {
    const { nCodebooks, nStreams, nDensities, streamLengths } = m;
    this.det = new Float64Array(nCodebooks * nStreams * nDensities);
    this.inv2var = new Float64Array(m.variances.length);
    let o = 0;
    for (let cb = 0; cb < nCodebooks; cb++)
      for (let f = 0; f < nStreams; f++)
        for (let d = 0; d < nDensities; d++) {
          let det = 0;
          for (let j = 0; j < streamLengths[f]!; j++, o++) {
            det += -0.5 * Math.log(2 * Math.PI * m.variances[o]!);
            this.inv2var[o] = 0.5 / m.variances[o]!;
          }
          this.det[(cb * nStreams + f) * nDensities + d] = det;
        }
  }

  async topN(features: Features, into?: TopNBuffers): Promise<GaussianTopN> {
    const { m } = this;
    const { nCodebooks, nStreams, nDensities, streamLengths } = m;
    const out = emptyTopN(m, features.nFrames, into);
    const y = new Float32Array(nDensities);
    for (let t = 0; t < features.nFrames; t++) {
      for (let f = 0; f < nStreams; f++) {
        const len = streamLengths[f]!;
        const x = features.streams[f]!.subarray(t * len, (t + 1) * len);
        for (let cb = 0; cb < nCodebooks; cb++) {
          const g0 = (cb * nStreams + f) * nDensities;
          const o0 = densityOffset(m, cb, f, 0);
          for (let d = 0; d < nDensities; d++) {
            const o = o0 + d * len;
            let s = this.det[g0 + d]!;
            for (let j = 0; j < len; j++) {
              const diff = x[j]! - m.means[o + j]!;
              s -= diff * diff * this.inv2var[o + j]!;
            }
            y[d] = s;
          }
          top4(y, 0, nDensities, out.ll, out.cw, ((t * nStreams + f) * nCodebooks + cb) * TOP_N);
        }
      }
    }
    return out;
  }
}

/**
 * The kernel on onnxruntime, one thread: per stream and block of BLOCK frames, one MatMul scores every
 * density of every codebook, and a TopK in the same graph keeps each codebook's best TOP_N. Only the
 * top-N cross into JavaScript: onnxruntime-node copies every output into a new ArrayBuffer on each run
 * (pre-allocated outputs included), and V8 counts that external memory towards its next full
 * collection, so the all-density scores (4.1 MB a block on the English model) made a small worker
 * heap mark about every window (ADR 0095).
 */
export class OnnxGaussianKernel implements GaussianKernel {
  readonly name = 'onnx' as const;

  private constructor(
    private readonly m: AcousticModel,
    private readonly ort: Ort,
    private readonly session: InferenceSession,
  ) {}

  static async create(m: AcousticModel): Promise<OnnxGaussianKernel> {
    const ort = await onnxRuntime();
    const cols = m.nCodebooks * m.nDensities;
    const weights = linearWeights(m);
    const model = encodeOnnxModel({
      nodes: m.streamLengths.flatMap((_, f) => [
        { op: 'MatMul', inputs: [`x${f}`, `w${f}`], outputs: [`y${f}`] },
        { op: 'Reshape', inputs: [`y${f}`, 'rows'], outputs: [`r${f}`] },
        {
          op: 'TopK',
          inputs: [`r${f}`, 'k'],
          outputs: [`v${f}`, `i${f}`],
          attrs: { axis: { int: -1 }, largest: { int: 1 }, sorted: { int: 1 } },
        },
      ]),
      initializers: [
        ...m.streamLengths.map((len, f) => ({ name: `w${f}`, dims: [2 * len + 1, cols], data: weights[f]! })),
        {
          name: 'rows',
          dims: [3],
          data: BigInt64Array.from([-1n, BigInt(m.nCodebooks), BigInt(m.nDensities)]),
        },
        { name: 'k', dims: [1], data: BigInt64Array.from([BigInt(TOP_N)]) },
      ],
      inputs: m.streamLengths.map((len, f) => ({ name: `x${f}`, shape: ['T', 2 * len + 1] })),
      outputs: m.streamLengths.flatMap((_, f) => [
        { name: `v${f}`, shape: ['T', m.nCodebooks, TOP_N] },
        { name: `i${f}`, shape: ['T', m.nCodebooks, TOP_N], elemType: 'int64' as const },
      ]),
    });
    // One thread: the engine runs one job per worker thread, and the CPU a job costs is what counts.
    const session = await nativeCall(() =>
      ort.InferenceSession.create(model, {
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
        graphOptimizationLevel: 'all',
      }),
    );
    return new OnnxGaussianKernel(m, ort, session);
  }

  async topN(features: Features, into?: TopNBuffers): Promise<GaussianTopN> {
    const { m, ort } = this;
    const { nCodebooks, nStreams, streamLengths } = m;
    const out = emptyTopN(m, features.nFrames, into);
    const perRow = nCodebooks * TOP_N;
    for (let t0 = 0; t0 < features.nFrames; t0 += BLOCK) {
      const n = Math.min(BLOCK, features.nFrames - t0);
      const feeds: Record<string, Tensor> = {};
      streamLengths.forEach((len, f) => {
        feeds[`x${f}`] = new ort.Tensor('float32', augmentedFrames(features.streams[f]!, len, t0, n), [
          n,
          2 * len + 1,
        ]);
      });
      const res = await nativeCall(() => this.session.run(feeds));
      for (let f = 0; f < nStreams; f++) {
        const v = res[`v${f}`]!.data as Float32Array;
        const i64 = res[`i${f}`]!.data as BigInt64Array;
        // the indices are below 256: the low half of each little-endian int64
        const idx = new Int32Array(i64.buffer, i64.byteOffset, 2 * i64.length);
        for (let t = 0; t < n; t++) {
          const src = t * perRow;
          const o = ((t0 + t) * nStreams + f) * perRow;
          out.ll.set(v.subarray(src, src + perRow), o);
          for (let j = 0; j < perRow; j++) out.cw[o + j] = idx[2 * (src + j)]!;
        }
      }
    }
    return out;
  }
}

/**
 * The native kernel (native/gmm.c): the same densities as the JavaScript kernel's, in float32 with fused
 * multiply-adds; its vector and scalar paths give the same bits, so a result does not depend on the
 * processor. One synchronous call a window, which never calls back into JavaScript and checks every
 * Node-API status instead of throwing: a thread stopped during it returns from it normally, so it needs no
 * native-guard.ts count (src/native/addon.test.ts stops threads there).
 */
export class NativeGaussianKernel implements GaussianKernel {
  readonly name = 'native' as const;

  private constructor(
    private readonly m: AcousticModel,
    private readonly addon: NativeAddon,
    private readonly handle: object,
  ) {}

  /**
   * null when the module is not built or does not load (nativeAddonMissing() says why). `widest` caps the
   * frames a vector holds (tests compare the paths: 16, 8, 0 for the scalar one).
   */
  static create(m: AcousticModel, opts: { widest?: number } = {}): NativeGaussianKernel | null {
    const addon = nativeAddon();
    if (!addon) return null;
    const handle = addon.createModel(
      m.means,
      m.variances,
      m.nCodebooks,
      m.nDensities,
      Int32Array.from(m.streamLengths),
      opts.widest ?? 16,
    );
    return new NativeGaussianKernel(m, addon, handle);
  }

  topN(features: Features, into?: TopNBuffers): Promise<GaussianTopN> {
    const out = emptyTopN(this.m, features.nFrames, into);
    this.addon.topN(this.handle, features.streams, features.nFrames, out.ll, out.cw);
    return Promise.resolve(out);
  }

  topNWithCosts(
    features: Features,
    into: TopNBuffers,
    dens: Uint8Array | undefined,
    units: { lnBase: number; maxNeg: number },
  ): Promise<{ topn: GaussianTopN; dens: Uint8Array }> {
    const topn = emptyTopN(this.m, features.nFrames, into);
    const n = topn.cw.length;
    // (a reused buffer's old contents never show: every cost of the window is written)
    const costs = dens && dens.length >= n ? dens.subarray(0, n) : new Uint8Array(n);
    const { streams, nFrames } = features;
    this.addon.topN(this.handle, streams, nFrames, topn.ll, topn.cw, costs, units.lnBase, units.maxNeg);
    return Promise.resolve({ topn, dens: costs });
  }
}

const kernels = new WeakMap<AcousticModel, Promise<GaussianKernel>>();

/** Why the last kernel made is not the fastest one asked for (null: it is). */
export let kernelFallback: string | null = null;

/**
 * Which kernel this process's engine takes (the native one where it is built and the processor has its
 * vector path, AVX2 with FMA or AVX-512; else onnxruntime) and, when it is not the native one, why.
 * TAZAMUN_GMM_KERNEL=onnx or =js asks for one. A worker logs it when it starts.
 */
export function gaussianKernelChoice(): { kernel: 'native' | 'onnx' | 'js'; why: string | null } {
  const want = process.env.TAZAMUN_GMM_KERNEL;
  if (want === 'js' || want === 'onnx') return { kernel: want, why: `TAZAMUN_GMM_KERNEL=${want}` };
  const addon = nativeAddon();
  if (!addon) return { kernel: 'onnx', why: nativeAddonMissing() };
  // without a vector path (a processor without AVX2 and FMA, or not x86) the native kernel's scalar loop
  // costs about 35 times its vector paths and 12 times onnxruntime's CPU
  if (addon.vectorLanes() < 8)
    return { kernel: 'onnx', why: 'the processor has no AVX2 with FMA for the native kernel' };
  return { kernel: 'native', why: null };
}

/**
 * The kernel for a model, made once per thread, as gaussianKernelChoice() says: onnxruntime is about three
 * to four times the native kernel's CPU, and JavaScript (when onnxruntime cannot load either) about
 * fifteen times onnxruntime's.
 */
export function gaussianKernel(m: AcousticModel): Promise<GaussianKernel> {
  let k = kernels.get(m);
  if (!k) {
    const choice = gaussianKernelChoice();
    kernelFallback = process.env.TAZAMUN_GMM_KERNEL ? null : choice.why;
    k =
      choice.kernel === 'native'
        ? Promise.resolve(NativeGaussianKernel.create(m)!)
        : choice.kernel === 'js'
          ? Promise.resolve(new JsGaussianKernel(m))
          : OnnxGaussianKernel.create(m).catch((err: unknown) => {
              kernelFallback = `onnxruntime: ${err instanceof Error ? err.message : String(err)}`;
              return new JsGaussianKernel(m);
            });
    kernels.set(m, k);
  }
  return k;
}
