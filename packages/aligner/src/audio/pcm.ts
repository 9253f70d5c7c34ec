// The engine's samples at 16 kHz mono, kept either as 32-bit floats in [-1, 1] or as 16-bit integers.
// 16-bit storage halves the memory a long recording takes (a 3-hour file: 346 MB instead of 691 MB) and
// loses nothing for the HMM back-end: pocketsphinx's models were trained on 16-bit audio, and a 16-bit
// WAV, the usual research recording, is read into it without any conversion. Every search reads a window
// at a time as floats (pcmWindow), so only the window being searched ever exists as floats.
export type Pcm = Float32Array | Int16Array;

const INT16_SCALE = 1 / 32768;

/**
 * The dither put on digitally silent samples (exact zeros) before the HMM front end sees them: about one
 * 16-bit step (-96 dBFS), a function of the sample's position alone, so any window of the file gets the
 * same values whichever way it is cut, and the stored samples are never changed.
 */
export function zeroDither(i: number): number {
  let h = Math.imul(i ^ 0x5bd1e995, 0x27d4eb2d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x165667b1);
  h ^= h >>> 13;
  const d = ((h >>> 0) / 4294967296 - 0.5) / 16384;
  return d !== 0 ? d : 1 / 65536;
}

/** Sample `i` as a float in [-1, 1]. */
export function sampleAt(pcm: Pcm, i: number): number {
  return pcm instanceof Int16Array ? pcm[i]! * INT16_SCALE : pcm[i]!;
}

/**
 * Samples [from, to) as floats: a view when they are stored as floats and none needs dithering, else a
 * new array. With `dither`, exact zeros get zeroDither(their position in the file).
 */
export function pcmWindow(pcm: Pcm, from: number, to: number, dither: boolean, origin = 0): Float32Array {
  const a = Math.max(0, Math.min(pcm.length, from));
  const b = Math.max(a, Math.min(pcm.length, to));
  if (pcm instanceof Float32Array) {
    const view = pcm.subarray(a, b);
    if (!dither || !view.includes(0)) return view;
    const out = Float32Array.from(view);
    for (let i = 0; i < out.length; i++) if (out[i] === 0) out[i] = zeroDither(origin + a + i);
    return out;
  }
  const out = new Float32Array(b - a);
  for (let i = 0; i < out.length; i++) {
    const v = pcm[a + i]!;
    out[i] = v !== 0 ? v * INT16_SCALE : dither ? zeroDither(origin + a + i) : 0;
  }
  return out;
}

/** A float in [-1, 1] to 16 bits as ffmpeg converts floats: lrintf(x * 32768), ties to even, clipped. */
export function toS16(x: number): number {
  const y = x * 32768;
  let r = Math.round(y);
  if (r - y === 0.5 && r % 2 !== 0) r -= 1;
  return r > 32767 ? 32767 : r < -32768 ? -32768 : r;
}

/** 16-bit integers as floats in [-1, 1] (exactly: every 16-bit value is a float). */
export function toFloat32(pcm: Pcm): Float32Array {
  return pcm instanceof Float32Array ? pcm : pcmWindow(pcm, 0, pcm.length, false);
}

/**
 * A recording's samples as the searches read them: one window at a time, as floats, with digital zeros
 * dithered when the back-end needs it (the HMM front end takes log energies).
 */
export class Samples {
  constructor(
    readonly pcm: Pcm,
    readonly dither: boolean,
    /** where pcm[0] sits in the whole recording (a piece of it): the dither follows the file's positions */
    readonly origin = 0,
  ) {}

  get length(): number {
    return this.pcm.length;
  }

  /** Samples [from, to) as floats (see pcmWindow). */
  window(from: number, to: number): Float32Array {
    return pcmWindow(this.pcm, from, to, this.dither, this.origin);
  }

  all(): Float32Array {
    return this.window(0, this.pcm.length);
  }
}
