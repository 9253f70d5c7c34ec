// Senone scores from the Gaussians' top-N, as a phonetically-tied model defines them: per stream, the
// log-sum over the senone's codebook's best densities of (mixture weight + density score), summed over
// streams. Computed in the Sphinx decoders' integer units (acoustic-model.ts) with their normalisation
// and clamps (a density more than MAX_NEG_ASCR units below the frame's best codebook counts as that far),
// so that a path scores as pocketsphinx scores it.
import { MAX_NEG_ASCR, SENSCR_UNIT } from '../model/acoustic-model.ts';
import type { AcousticModel } from '../model/acoustic-model.ts';
import { TOP_N } from './gaussians.ts';
import type { GaussianKernel, GaussianTopN, TopNBuffers } from './gaussians.ts';
import type { Features } from '../frontend/features.ts';

const LN_BASE = Math.log(1.0001);

// SenoneCosts.at adds each stream's four best densities unrolled
if (TOP_N !== 4) throw new Error(`SenoneCosts.at is written for a top-4, not a top-${TOP_N}`);

/** log(1 + e^-d) in units, for d in units: the decoders' 8-bit log-add table. */
const LOGADD: Int32Array = (() => {
  const out: number[] = [];
  for (let d = 0; ; d++) {
    const lobyx = Math.log(1 + Math.exp(-d * SENSCR_UNIT)) / LN_BASE;
    const k = Math.floor((lobyx + 512) / 1024);
    if (k <= 0) break;
    out.push(k);
  }
  return Int32Array.from(out);
})();

/**
 * LOGADD, then zeros up to a difference of 1023 units. A density's term (mixture weight + clamped score)
 * lies in [0, MAX_NEG_MIXW + MAX_NEG_ASCR] = [0, 255], and a log-sum of four of them at most 3 × 7 units
 * below its best term, so two terms that `at` adds never differ by more than 276.
 */
export const LOGADD_WIDE: Int32Array = (() => {
  const out = new Int32Array(1024);
  out.set(LOGADD);
  return out;
})();

/** -log(e^-a + e^-b) for costs a and b in units. */
export function addCosts(a: number, b: number): number {
  const d = a > b ? a - b : b - a;
  const r = a < b ? a : b;
  return d < LOGADD.length ? r - LOGADD[d]! : r;
}

/**
 * addCosts without a branch, for integer costs less than 1024 units apart (LOGADD_WIDE): which term is the
 * smaller varies from density to density, and the branches it took were mispredicted about half the time
 * (the senone costs of a phone loop took half the time they took with addCosts).
 */
export function addNear(a: number, b: number): number {
  const d = (a - b) | 0;
  const s = d >> 31;
  return (b + (d & s) - LOGADD_WIDE[((d ^ s) - s) & 1023]!) | 0;
}

/** Nats per unit: a cost in units times this is -log-likelihood in nats. */
export const UNIT_NATS = SENSCR_UNIT;

/**
 * The per-frame density costs (units, best codebook of each stream at 0) with the clamp applied.
 * `normCodebooks` chooses which codebooks set each frame's best (the Sphinx decoders use the codebooks of
 * the senones being searched); null: all of them, and every cost lies in [0, MAX_NEG_ASCR], a byte each
 * (written into `into` when it is long enough: a window's buffer reused). With `normCodebooks`, a
 * codebook outside them may score above the best, so costs may be negative: 32-bit integers.
 */
export function densityCosts(topn: GaussianTopN, normCodebooks: null, into?: Uint8Array): Uint8Array;
export function densityCosts(topn: GaussianTopN, normCodebooks: Uint8Array): Int32Array;
export function densityCosts(
  topn: GaussianTopN,
  normCodebooks: Uint8Array | null,
  into?: Uint8Array,
): Uint8Array | Int32Array {
  const { nFrames, nStreams, nCodebooks } = topn;
  const n = topn.ll.length;
  const out = normCodebooks
    ? new Int32Array(n)
    : into && into.length >= n
      ? into.subarray(0, n)
      : new Uint8Array(n);
  const perFrame = nStreams * nCodebooks * TOP_N;
  for (let t = 0; t < nFrames; t++) {
    for (let f = 0; f < nStreams; f++) {
      const base = t * perFrame + f * nCodebooks * TOP_N;
      let norm = -Infinity;
      for (let cb = 0; cb < nCodebooks; cb++) {
        if (normCodebooks && !normCodebooks[cb]) continue;
        const s = Math.floor(Math.trunc(topn.ll[base + cb * TOP_N]! / LN_BASE) / 1024);
        if (s > norm) norm = s;
      }
      for (let i = 0; i < nCodebooks * TOP_N; i++) {
        let c = norm - Math.floor(Math.trunc(topn.ll[base + i]! / LN_BASE) / 1024);
        if (c > MAX_NEG_ASCR) c = MAX_NEG_ASCR;
        out[base + i] = c;
      }
    }
  }
  return out;
}

/**
 * A window's top-N (into `into`) and its density costs as densityCosts(topn, null, dens) gives them: in
 * the kernel's own pass where it has one (the native kernel, while a block's scores are in cache), else
 * computed here.
 */
export async function topNAndCosts(
  kernel: GaussianKernel,
  features: Features,
  into: TopNBuffers,
  dens?: Uint8Array,
): Promise<{ topn: GaussianTopN; dens: Uint8Array }> {
  if (kernel.topNWithCosts)
    return kernel.topNWithCosts(features, into, dens, { lnBase: LN_BASE, maxNeg: MAX_NEG_ASCR });
  const topn = await kernel.topN(features, into);
  return { topn, dens: densityCosts(topn, null, dens) };
}

/**
 * Senone costs (units, lower is better) on demand: a search asks only for the senones of its active
 * HMMs, frame by frame (a window's network may hold thousands of senones, a frame needs a few hundred).
 * Each frame's costs are relative to the frame's best codebook, so they compare across senones within a
 * frame, and a path's sum compares across paths over the same frames.
 */
export class SenoneCosts {
  /** the codebook of each senone index */
  readonly cb: Int32Array;
  private readonly perFrame: number;
  /** pocketsphinx's normaliser per stream for the frame `normFrame` (activate()) */
  private readonly norm: Int32Array;
  private normFrame = -1;
  // what at() reads, held here (one load each instead of a chain through the model and the top-N)
  private readonly mixw: Uint8Array;
  private readonly cw: Uint8Array;
  private readonly nStreams: number;
  private readonly nDens: number;
  /** from one stream's top-N of a codebook to the next stream's, in a frame */
  private readonly streamStride: number;

  constructor(
    private readonly m: AcousticModel,
    private readonly topn: GaussianTopN,
    private readonly dens: Uint8Array | Int32Array,
    /** the model senone of each index asked for */
    readonly senones: Int32Array,
    /**
     * TAZAMUN_EMULATE=pocketsphinx: the top-N densities as pocketsphinx scores them, before its
     * normalisation (scoring/sphinx-gaussians.ts); activate() and atActive() then score senones as it does
     */
    private readonly sphinx?: { units: Int32Array; cw: Uint8Array },
  ) {
    this.cb = senones.map((s) => m.mdef.senoneCi[s]!);
    this.perFrame = topn.nStreams * topn.nCodebooks * TOP_N;
    this.norm = new Int32Array(topn.nStreams);
    this.mixw = m.mixw;
    this.cw = topn.cw;
    this.nStreams = topn.nStreams;
    this.nDens = m.nDensities;
    this.streamStride = topn.nCodebooks * TOP_N;
  }

  /**
   * pocketsphinx's normaliser for frame t (ptm_mgau.c, codebook_norm): per stream, the best density among
   * the codebooks of the senones its search has active in that frame (`active`, per codebook), not among
   * all codebooks. The clamp at MAX_NEG_ASCR below it then depends on what is being searched.
   */
  activate(t: number, active: Uint8Array): void {
    const { units } = this.sphinx!;
    const { nStreams, nCodebooks } = this.topn;
    const fo = t * this.perFrame;
    for (let f = 0; f < nStreams; f++) {
      let norm = -(2 ** 31);
      for (let cb = 0; cb < nCodebooks; cb++) {
        if (!active[cb]) continue;
        const s = units[fo + (f * nCodebooks + cb) * TOP_N]!;
        if (s > norm) norm = s;
      }
      this.norm[f] = norm;
    }
    this.normFrame = t;
  }

  /** Cost of senone index k at frame t under activate()'s normaliser (pocketsphinx's senone score). */
  atActive(t: number, k: number): number {
    if (t !== this.normFrame) throw new Error(`senone costs asked for frame ${t} before activate()`);
    const { m, topn } = this;
    const { units, cw } = this.sphinx!;
    const nStreams = topn.nStreams;
    const nCodebooks = topn.nCodebooks;
    const nDens = m.nDensities;
    const sen = this.senones[k]!;
    const cb = this.cb[k]!;
    const mixw = m.mixw;
    const fo = t * this.perFrame;
    let total = 0;
    for (let f = 0; f < nStreams; f++) {
      const o = fo + (f * nCodebooks + cb) * TOP_N;
      const mixBase = (sen * nStreams + f) * nDens;
      const norm = this.norm[f]!;
      let fden = 0;
      for (let j = 0; j < TOP_N; j++) {
        let c = norm - units[o + j]!;
        if (c > MAX_NEG_ASCR) c = MAX_NEG_ASCR;
        const v = mixw[mixBase + cw[o + j]!]! + c;
        fden = j === 0 ? v : addCosts(fden, v);
      }
      total += fden;
    }
    return total;
  }

  get nFrames(): number {
    return this.topn.nFrames;
  }

  /**
   * What at() reads, for the native search (native/search.c computes at() from them); null under
   * pocketsphinx's rules or with per-frame normalised costs (32-bit), which only the JavaScript scores.
   */
  tables(): {
    senones: Int32Array;
    cb: Int32Array;
    mixw: Uint8Array;
    cw: Uint8Array;
    dens: Uint8Array;
    nStreams: number;
    nDensities: number;
    nCodebooks: number;
    perFrame: number;
    streamStride: number;
  } | null {
    if (this.sphinx || !(this.dens instanceof Uint8Array)) return null;
    return {
      senones: this.senones,
      cb: this.cb,
      mixw: this.mixw,
      cw: this.cw,
      dens: this.dens,
      nStreams: this.nStreams,
      nDensities: this.nDens,
      nCodebooks: this.topn.nCodebooks,
      perFrame: this.perFrame,
      streamStride: this.streamStride,
    };
  }

  /** Cost of senone index k at frame t (TOP_N = 4 terms per stream, unrolled). */
  at(t: number, k: number): number {
    const { mixw, cw, dens, nStreams, nDens } = this;
    const sen = this.senones[k]!;
    let o = t * this.perFrame + this.cb[k]! * TOP_N;
    let mixBase = sen * nStreams * nDens;
    let total = 0;
    for (let f = 0; f < nStreams; f++) {
      let fden = mixw[mixBase + cw[o]!]! + dens[o]!;
      fden = addNear(fden, mixw[mixBase + cw[o + 1]!]! + dens[o + 1]!);
      fden = addNear(fden, mixw[mixBase + cw[o + 2]!]! + dens[o + 2]!);
      fden = addNear(fden, mixw[mixBase + cw[o + 3]!]! + dens[o + 3]!);
      total += fden;
      o += this.streamStride;
      mixBase += nDens;
    }
    return total;
  }
}
