// A CMU Sphinx phonetically-tied-mixture (PTM) acoustic model, read from its folder: mdef, means,
// variances, mixture weights (quantised `sendump` or float `mixture_weights`), transition_matrices and
// the front-end parameters it was trained with (feat.params, or soundswallower's feat_params.json).
// Weights are kept as the Sphinx decoders keep them, in integer units of their search (SENSCR_UNIT: the
// log base 1.0001 shifted right by 10 bits, 0.1024 nats): the same quantities, rounded the same way, so
// that this decoder and pocketsphinx score a path alike.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from '../../../errors.ts';
import { readMdef } from './mdef.ts';
import type { ModelDefinition } from './mdef.ts';
import { readGaussians, readMixtureWeights, readTransitions } from './s3file.ts';

/** ln(1.0001) * 2^10: one unit of the Sphinx search's shifted integer log scores, in nats. */
export const SENSCR_UNIT = Math.log(1.0001) * 1024;
/** Quantised mixture weights are at most this many units (-16.3 nats): the Sphinx floor. */
export const MAX_NEG_MIXW = 159;
/** A Gaussian score more than this many units below the frame's best is clamped there (9.8 nats). */
export const MAX_NEG_ASCR = 96;
/** A transition cost of this many units (a zero probability, or one below 26 nats) is never taken. */
export const TMAT_FORBIDDEN = 255;

export interface FrontEndSettings {
  sampleRate: number;
  lowerf: number;
  upperf: number;
  nfilt: number;
  ncep: number;
  lifter: number;
  alpha: number;
  wlen: number;
  frate: number;
  transform: 'dct' | 'legacy' | 'htk';
  removeNoise: boolean;
  feat: string;
  /** the streams' dimension ranges ("0-12/13-25/26-38") */
  svspec: number[][] | null;
  cmn: 'batch' | 'live' | 'none';
  cmninit: number[];
  varnorm: boolean;
}

export interface AcousticModel {
  dir: string;
  mdef: ModelDefinition;
  frontEnd: FrontEndSettings;
  nCodebooks: number;
  nStreams: number;
  nDensities: number;
  streamLengths: number[];
  /** means and variances (floored), [codebook][stream][density][dim] */
  means: Float32Array;
  variances: Float32Array;
  /** -log(weight) in SENSCR_UNITs, at most MAX_NEG_MIXW: [senone][stream][density] (a senone's together) */
  mixw: Uint8Array;
  /** -log(probability) in SENSCR_UNITs per tmat, [tmat][from][to]; TMAT_FORBIDDEN: never taken */
  tmat: Uint8Array;
  nTmatTo: number;
}

function bad(path: string, why: string): EngineError {
  return new EngineError('engine_fault', `the acoustic model in ${path} cannot be read: ${why}`);
}

const DEFAULTS: FrontEndSettings = {
  sampleRate: 16000,
  lowerf: 133.33334,
  upperf: 6855.4976,
  nfilt: 40,
  ncep: 13,
  lifter: 0,
  alpha: 0.97,
  wlen: 0.025625,
  frate: 100,
  transform: 'legacy',
  removeNoise: false,
  feat: '1s_c_d_dd',
  svspec: null,
  cmn: 'batch',
  cmninit: [],
  varnorm: false,
};

/** Front-end settings from a feat.params ("-key value" lines) or a feat_params.json. */
export function parseFeatParams(text: string): FrontEndSettings {
  const raw: Record<string, string> = {};
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    for (const [k, v] of Object.entries(JSON.parse(trimmed) as Record<string, unknown>)) raw[k] = String(v);
  } else {
    for (const line of trimmed.split('\n')) {
      const m = /^-(\S+)\s+(\S+)/.exec(line.trim());
      if (m) raw[m[1]!] = m[2]!;
    }
  }
  const num = (k: string, d: number) => (raw[k] !== undefined ? Number(raw[k]) : d);
  const bool = (k: string, d: boolean) => (raw[k] !== undefined ? /^(yes|true|1)$/i.test(raw[k]) : d);
  const cmnRaw = raw.cmn ?? 'batch';
  const transform = (raw.transform ?? DEFAULTS.transform) as FrontEndSettings['transform'];
  return {
    sampleRate: num('samprate', DEFAULTS.sampleRate),
    lowerf: num('lowerf', DEFAULTS.lowerf),
    upperf: num('upperf', DEFAULTS.upperf),
    nfilt: num('nfilt', DEFAULTS.nfilt),
    ncep: num('ncep', DEFAULTS.ncep),
    lifter: num('lifter', DEFAULTS.lifter),
    alpha: num('alpha', DEFAULTS.alpha),
    wlen: num('wlen', DEFAULTS.wlen),
    frate: num('frate', DEFAULTS.frate),
    transform,
    removeNoise: bool('remove_noise', DEFAULTS.removeNoise),
    feat: raw.feat ?? DEFAULTS.feat,
    svspec: raw.svspec
      ? raw.svspec.split('/').map((part) =>
          part.split(',').flatMap((r) => {
            const [a, b] = r.split('-').map(Number) as [number, number | undefined];
            return Array.from({ length: (b ?? a) - a + 1 }, (_, i) => a + i);
          }),
        )
      : null,
    // "current" and "prior" are the older names of batch and live normalisation.
    cmn: /^(batch|current)$/.test(cmnRaw) ? 'batch' : /^(live|prior)$/.test(cmnRaw) ? 'live' : 'none',
    cmninit: (raw.cmninit ?? '').split(',').filter(Boolean).map(Number),
    varnorm: bool('varnorm', false),
  };
}

/**
 * The quantised mixture weights of a `sendump`: a title and header strings (int32 length + text), the
 * codeword and senone counts, then one byte per (stream, codeword, senone): -log(weight) in the shifted
 * log base of the search, at most MAX_NEG_MIXW.
 */
function readSendump(bytes: Uint8Array, path: string, nStreams: number, nDensities: number, nSen: number) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 0;
  let clusters = 0;
  let bits = 8;
  for (;;) {
    if (p + 4 > bytes.length) throw bad(path, 'truncated sendump header');
    const n = v.getInt32(p, true);
    p += 4;
    if (n === 0) break;
    if (n < 0 || n > 1000) throw bad(path, 'sendump header strings are not little-endian');
    const s = Buffer.from(bytes.buffer, bytes.byteOffset + p, n - 1).toString('latin1');
    p += n;
    const m = /^(cluster_count|cluster_bits) (\d+)/.exec(s);
    if (m?.[1] === 'cluster_count') clusters = Number(m[2]);
    if (m?.[1] === 'cluster_bits') bits = Number(m[2]);
  }
  if (clusters !== 0 || bits !== 8) throw bad(path, 'clustered (4-bit) sendump files are not supported');
  const rows = v.getInt32(p, true);
  const cols = v.getInt32(p + 4, true);
  p += 8;
  if (rows !== nDensities || cols !== nSen)
    throw bad(path, `sendump is ${rows} x ${cols}, the model ${nDensities} x ${nSen}`);
  if (p + nStreams * rows * cols > bytes.length) throw bad(path, 'truncated sendump');
  // the file holds [stream][density][senone]; a senone's weights are read together, so they are kept so
  const out = new Uint8Array(nStreams * rows * cols);
  for (let f = 0; f < nStreams; f++)
    for (let d = 0; d < rows; d++) {
      const src = p + (f * rows + d) * cols;
      for (let s = 0; s < cols; s++) out[(s * nStreams + f) * rows + d] = bytes[src + s]!;
    }
  return out;
}

/** Float mixture weights, normalised, floored and quantised as the Sphinx decoders read them. */
export function mixwFromFloats(
  w: Float32Array,
  nSen: number,
  nStreams: number,
  nDensities: number,
  floor: number,
): Uint8Array {
  const out = new Uint8Array(nStreams * nDensities * nSen);
  const pdf = new Float64Array(nDensities);
  for (let s = 0; s < nSen; s++) {
    for (let f = 0; f < nStreams; f++) {
      const o = (s * nStreams + f) * nDensities;
      let sum = 0;
      for (let d = 0; d < nDensities; d++) sum += pdf[d] = w[o + d]!;
      let sum2 = 0;
      for (let d = 0; d < nDensities; d++) {
        const x = sum > 0 ? pdf[d]! / sum : 0;
        sum2 += pdf[d] = x < floor ? floor : x;
      }
      for (let d = 0; d < nDensities; d++) {
        // the decoders' log base 1.0001 truncated, shifted right by 10 bits, negated
        let q = -Math.floor(Math.trunc(Math.log(pdf[d]! / sum2) / Math.log(1.0001)) / 1024);
        if (q > MAX_NEG_MIXW || q < 0) q = MAX_NEG_MIXW;
        out[(s * nStreams + f) * nDensities + d] = q;
      }
    }
  }
  return out;
}

function transitionCosts(
  bytes: Uint8Array,
  path: string,
  tpfloor: number,
): { cost: Uint8Array; nTo: number } {
  const t = readTransitions(bytes, path);
  const cost = new Uint8Array(t.data.length);
  for (let i = 0; i < t.nTmat; i++) {
    for (let j = 0; j < t.nFrom; j++) {
      const o = (i * t.nFrom + j) * t.nTo;
      const row = Array.from(t.data.subarray(o, o + t.nTo));
      let sum = row.reduce((a, b) => a + b, 0);
      const norm = row.map((x) => (sum > 0 ? x / sum : 0)).map((x) => (x !== 0 && x < tpfloor ? tpfloor : x));
      sum = norm.reduce((a, b) => a + b, 0);
      for (let k = 0; k < t.nTo; k++) {
        const p = norm[k]! / sum;
        // Quantised as the search's bytes: 255 units (26 nats) is the worst, a zero the search never takes.
        // (the decoders truncate the base-1.0001 log, then shift it right by 10 bits)
        const q = p > 0 ? Math.floor(Math.trunc(-Math.log(p) / Math.log(1.0001)) / 1024) : TMAT_FORBIDDEN;
        cost[o + k] = Math.min(TMAT_FORBIDDEN, q);
      }
    }
  }
  return { cost, nTo: t.nTo };
}

export interface ModelFiles {
  dir: string;
  /** feat.params or feat_params.json (defaults: the folder's own) */
  featParams?: string;
  varfloor?: number;
  tmatfloor?: number;
  mixwfloor?: number;
}

export function featParamsPath(dir: string): string | null {
  for (const name of ['feat.params', 'feat_params.json'])
    if (existsSync(join(dir, name))) return join(dir, name);
  return null;
}

export function loadAcousticModel(files: ModelFiles): AcousticModel {
  const { dir } = files;
  const read = (name: string) => {
    const path = join(dir, name);
    try {
      return readFileSync(path);
    } catch {
      throw bad(dir, `missing ${name}`);
    }
  };
  const mdef = readMdef(read('mdef'), join(dir, 'mdef'));
  const fp = files.featParams ?? featParamsPath(dir);
  const frontEnd = fp ? parseFeatParams(readFileSync(fp, 'utf8')) : { ...DEFAULTS };
  const means = readGaussians(read('means'), join(dir, 'means'));
  const vars = readGaussians(read('variances'), join(dir, 'variances'));
  if (
    means.nCodebooks !== vars.nCodebooks ||
    means.nDensities !== vars.nDensities ||
    means.streamLengths.join() !== vars.streamLengths.join()
  )
    throw bad(dir, 'means and variances differ in shape');
  if (means.nCodebooks !== mdef.ciPhones.length)
    throw bad(
      dir,
      `${means.nCodebooks} codebooks for ${mdef.ciPhones.length} phones: not a phonetically-tied model`,
    );
  const varfloor = files.varfloor ?? 1e-4;
  const variances = vars.data.map((x) => (x < varfloor ? varfloor : x));
  let mixw: Uint8Array;
  if (existsSync(join(dir, 'mixture_weights'))) {
    const m = readMixtureWeights(read('mixture_weights'), join(dir, 'mixture_weights'));
    if (m.nSenones !== mdef.nSenones || m.nStreams !== means.nStreams || m.nDensities !== means.nDensities)
      throw bad(dir, 'mixture_weights do not match the model definition');
    mixw = mixwFromFloats(m.data, m.nSenones, m.nStreams, m.nDensities, files.mixwfloor ?? 1e-7);
  } else {
    mixw = readSendump(
      read('sendump'),
      join(dir, 'sendump'),
      means.nStreams,
      means.nDensities,
      mdef.nSenones,
    );
  }
  const t = transitionCosts(
    read('transition_matrices'),
    join(dir, 'transition_matrices'),
    files.tmatfloor ?? 1e-4,
  );
  if (t.nTo !== mdef.nEmitState + 1)
    throw bad(dir, 'transition matrices and phones have different state counts');
  return {
    dir,
    mdef,
    frontEnd,
    nCodebooks: means.nCodebooks,
    nStreams: means.nStreams,
    nDensities: means.nDensities,
    streamLengths: means.streamLengths,
    means: means.data,
    variances,
    mixw,
    tmat: t.cost,
    nTmatTo: t.nTo,
  };
}
