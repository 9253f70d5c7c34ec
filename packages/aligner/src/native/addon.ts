// The engine's native module (native/: the Gaussian kernel and the front end's spectra, built by
// native/build.mjs into native/build/), found from wherever this code runs: the package's sources, its CLI
// bundle in dist/, or a bundle of another workspace package (the server's), which sees it under
// packages/aligner/. Loaded once per thread, on first use; absent (no C compiler where the project was
// installed), the engine uses onnxruntime and JavaScript instead, with the same results.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the module exports. Every call is synchronous and never calls back into JavaScript. */
export interface NativeAddon {
  /**
   * A model's Gaussians laid out for scoring on the widest path the processor runs, up to `widest` frames
   * a vector (16: AVX-512, 8: AVX2, 0: the scalar reference; every path gives the same bits).
   */
  createModel(
    means: Float32Array,
    variances: Float32Array,
    nCodebooks: number,
    nDensities: number,
    streamLengths: Int32Array,
    widest: number,
  ): object;
  /** Frames a vector holds on the widest path this processor runs (16, 8, or 1: the scalar path). */
  vectorLanes(): number;
  /**
   * Each frame's top-4 densities per stream and codebook, written into ll and cw (GaussianTopN's layout);
   * with `dens`, their density costs too, as senones.ts's densityCosts(topn, null) computes them.
   */
  topN(
    model: object,
    streams: Float32Array[],
    nFrames: number,
    ll: Float32Array,
    cw: Uint8Array,
    dens?: Uint8Array,
    lnBase?: number,
    maxNeg?: number,
  ): void;
  /** A front end's tables (frontend/mfcc.ts's FrontEnd): frame geometry, window, twiddles, mel filters. */
  createFrontEnd(
    size: number,
    shift: number,
    nfft: number,
    alpha: number,
    window: Float64Array,
    cos: Float64Array,
    sin: Float64Array,
    swaps: Uint16Array,
    filterStarts: Int32Array,
    filterCoeffs: Float64Array[],
  ): object;
  /** Each frame's mel power spectrum (before noise removal and the logarithm), nfilt values a frame. */
  melSpectra(frontEnd: object, samples: Float32Array, nFrames: number, out: Float64Array): void;
  /**
   * search/viterbi.ts's search under its default rules over a network and SenoneCosts' tables, to the bit:
   * null when no path ends within the beams, else the path's (hmm, start, end) triples, its score and the
   * frames it covers; each frame's lowest active senone cost goes into bestActive.
   */
  search(
    net: object,
    costs: object,
    nFrames: number,
    beam: number,
    pbeam: number,
    wbeam: number,
    trans: Float64Array,
    logadd: Int32Array,
    bestActive: Int32Array,
  ): { phones: Int32Array; score: number; nFrames: number } | null;
  /** adapt/fmllr.ts's accumulateFrame, to the bit: one frame's share of a stream's fMLLR statistics. */
  fmllrAccumulate(
    g: Float64Array,
    k: Float64Array,
    stream: Float32Array,
    at: number,
    d: number,
    wg: Float64Array,
    wk: Float64Array,
  ): void;
}

const FILE = join('native', 'build', 'tazamun-native.node');

/** The built module's path, looked for in this file's folder and each folder above it. */
export function nativeAddonPath(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    for (const p of [join(dir, FILE), join(dir, 'packages', 'aligner', FILE)]) if (existsSync(p)) return p;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

let loaded: { addon: NativeAddon | null; why: string | null } | null = null;

/** The module, or null with the reason (nativeAddonMissing()); looked for once per thread. */
export function nativeAddon(): NativeAddon | null {
  if (!loaded) {
    const path = nativeAddonPath();
    if (!path) loaded = { addon: null, why: `${FILE} is not built (node packages/aligner/native/build.mjs)` };
    else
      try {
        loaded = { addon: createRequire(import.meta.url)(path) as NativeAddon, why: null };
      } catch (err) {
        loaded = {
          addon: null,
          why: `${path} did not load: ${err instanceof Error ? err.message : String(err)}`,
        };
      }
  }
  return loaded.addon;
}

/** Why nativeAddon() returned null (null when it loaded or was not asked for yet). */
export function nativeAddonMissing(): string | null {
  return loaded?.why ?? null;
}
