// Feature vectors from cepstra, as the model's `feat` and `cmn` settings say: cepstral mean
// normalisation over the window (batch), then the static cepstra with their first and second differences
// (1s_c_d_dd: c[t], c[t+2] - c[t-2], (c[t+3] - c[t-1]) - (c[t+1] - c[t-3]), the window's first and last
// frames repeated past its edges), split into the streams the model's Gaussians are over (svspec).
import { EngineError } from '../../../errors.ts';
import type { FrontEndSettings } from '../model/acoustic-model.ts';

export interface Features {
  nFrames: number;
  /** per stream: nFrames x length values, frame-major */
  streams: Float32Array[];
  streamLengths: number[];
  /**
   * The mean batch CMN subtracted from the cepstra (absent with variance normalisation), and where each
   * stream's values come from (cepstrum i of the static part, -1 for the differences): a speaker transform
   * fitted to frames of another window is applied as if they had had that window's mean subtracted.
   */
  cmn?: { mean: Float64Array; statics: Int32Array[] };
}

/**
 * Subtracts the mean of the frames whose c0 is not negative (the Sphinx rule: near-silent frames do not
 * count); returns the mean subtracted.
 */
export function batchCmn(cep: Float32Array, ncep: number, varnorm: boolean): Float64Array {
  const nfr = cep.length / ncep;
  const mean = new Float64Array(ncep);
  if (nfr === 0) return mean;
  let n = 0;
  for (let t = 0; t < nfr; t++) {
    if (cep[t * ncep]! < 0) continue;
    for (let i = 0; i < ncep; i++) mean[i]! += cep[t * ncep + i]!;
    n++;
  }
  if (n === 0) {
    // Every frame is near silence: the mean of all of them (the Sphinx code divides by zero here).
    for (let t = 0; t < nfr; t++) for (let i = 0; i < ncep; i++) mean[i]! += cep[t * ncep + i]!;
    n = nfr;
  }
  for (let i = 0; i < ncep; i++) mean[i]! /= n;
  const scale = new Float64Array(ncep).fill(1);
  if (varnorm) {
    const v = new Float64Array(ncep);
    for (let t = 0; t < nfr; t++)
      for (let i = 0; i < ncep; i++) {
        const d = cep[t * ncep + i]! - mean[i]!;
        v[i]! += d * d;
      }
    for (let i = 0; i < ncep; i++) scale[i] = v[i]! > 0 ? Math.sqrt(nfr / v[i]!) : 1;
  }
  for (let t = 0; t < nfr; t++)
    for (let i = 0; i < ncep; i++) cep[t * ncep + i] = (cep[t * ncep + i]! - mean[i]!) * scale[i]!;
  return mean;
}

/** The 39-dimensional c, d, dd vector of every frame (cepstra already normalised). */
export function deltas(cep: Float32Array, ncep: number): Float32Array {
  const nfr = cep.length / ncep;
  const dim = ncep * 3;
  const out = new Float32Array(nfr * dim);
  const at = (t: number, i: number) => cep[(t < 0 ? 0 : t >= nfr ? nfr - 1 : t) * ncep + i]!;
  for (let t = 0; t < nfr; t++) {
    const o = t * dim;
    for (let i = 0; i < ncep; i++) {
      out[o + i] = at(t, i);
      out[o + ncep + i] = at(t + 2, i) - at(t - 2, i);
      out[o + 2 * ncep + i] = at(t + 3, i) - at(t - 1, i) - (at(t + 1, i) - at(t - 3, i));
    }
  }
  return out;
}

export function computeFeatures(cep: Float32Array, s: FrontEndSettings, streamLengths: number[]): Features {
  const ncep = s.ncep;
  if (s.feat !== '1s_c_d_dd')
    throw new EngineError('engine_fault', `feature type ${s.feat} is not supported (only 1s_c_d_dd)`);
  const mean = s.cmn === 'batch' ? batchCmn(cep, ncep, s.varnorm) : null;
  const full = deltas(cep, ncep);
  const dim = ncep * 3;
  const nFrames = full.length / dim;
  const groups = s.svspec ?? [Array.from({ length: dim }, (_, i) => i)];
  if (groups.length !== streamLengths.length || groups.some((g, i) => g.length !== streamLengths[i]))
    throw new EngineError('engine_fault', 'the feature streams do not match the model (svspec)');
  // (a loop, not a callback made by each call: the callback's hot loop was compiled again for every
  // window of a long recording)
  const streams: Float32Array[] = [];
  for (const g of groups) {
    const out = new Float32Array(nFrames * g.length);
    for (let t = 0; t < nFrames; t++)
      for (let j = 0; j < g.length; j++) out[t * g.length + j] = full[t * dim + g[j]!]!;
    streams.push(out);
  }
  if (!mean || s.varnorm) return { nFrames, streams, streamLengths };
  const statics = groups.map((g) => Int32Array.from(g, (i) => (i < ncep ? i : -1)));
  return { nFrames, streams, streamLengths, cmn: { mean, statics } };
}
