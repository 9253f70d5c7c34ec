// The engine's samples at 16 kHz mono, kept either as 32-bit floats in [-1, 1] or as 16-bit integers.
// 16-bit storage halves the memory a long recording takes (a 3-hour file: 346 MB instead of 691 MB) and
// loses nothing for the HMM back-end: pocketsphinx's models were trained on 16-bit audio, and a 16-bit
// WAV, the usual research recording, is read into it without any conversion. Every search reads a window
// at a time as floats (pcmWindow), so only the window being searched ever exists as floats.
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
 * A recording's 16-bit samples in a file instead of memory, read a window at a time: a long recording's
 * samples are the biggest thing a job holds (a 3-hour file: 350 MB), and a search needs only the window
 * it reads. The file is unlinked as soon as it is opened, so it never outlives the job's descriptor, even
 * when the process dies; close() gives its space back.
 */
export class PcmFile {
  private constructor(
    private fd: number | null,
    readonly length: number,
  ) {}

  /** Writes `pcm` to a new file in `dir` (the system's temporary directory by default). */
  static write(pcm: Int16Array, dir = tmpdir()): PcmFile {
    const path = join(dir, `tazamun-samples-${process.pid}-${randomUUID()}.s16`);
    const fd = openSync(path, 'wx+', 0o600);
    try {
      unlinkSync(path);
      const bytes = new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
      for (let at = 0; at < bytes.length;)
        at += writeSync(fd, bytes, at, Math.min(WRITE_CHUNK, bytes.length - at), at);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    return new PcmFile(fd, pcm.length);
  }

  /** Samples [from, to) (inside the file) as a new array. */
  read(from: number, to: number): Int16Array {
    if (this.fd === null) throw new Error('the samples file was closed');
    const out = new Int16Array(to - from);
    const bytes = new Uint8Array(out.buffer);
    for (let done = 0; done < bytes.length;) {
      const n = readSync(this.fd, bytes, done, bytes.length - done, from * 2 + done);
      if (n === 0) throw new Error(`the samples file ends before sample ${from + done / 2}`);
      done += n;
    }
    return out;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

const WRITE_CHUNK = 1 << 24;

/**
 * A recording's samples as the searches read them: one window at a time, as floats, with digital zeros
 * dithered when the back-end needs it (the HMM front end takes log energies). They are kept in memory or,
 * for a long recording, in a file (PcmFile).
 */
export class Samples {
  constructor(
    private readonly stored: Pcm | PcmFile,
    readonly dither: boolean,
    /** where the first sample sits in the whole recording (a piece of it): the dither follows the file's positions */
    readonly origin = 0,
  ) {}

  get length(): number {
    return this.stored.length;
  }

  /** Samples [from, to) as they are stored (clamped to the recording); a view when they are in memory. */
  private read(from: number, to: number): Pcm {
    return this.stored instanceof PcmFile ? this.stored.read(from, to) : this.stored.subarray(from, to);
  }

  /** [from, to) cut to the recording (an empty range where they do not meet it). */
  private clamp(from: number, to: number): [number, number] {
    const a = Math.max(0, Math.min(this.length, from));
    return [a, Math.max(a, Math.min(this.length, to))];
  }

  /** Samples [from, to) as floats (see pcmWindow). */
  window(from: number, to: number): Float32Array {
    const [a, b] = this.clamp(from, to);
    return pcmWindow(this.read(a, b), 0, b - a, this.dither, this.origin + a);
  }

  all(): Float32Array {
    return this.window(0, this.length);
  }

  /** Samples [from, to) as a recording of their own, in memory, that knows where it sits in this one. */
  piece(from: number, to: number): Samples {
    const [a, b] = this.clamp(from, to);
    return new Samples(this.read(a, b), this.dither, this.origin + a);
  }

  /** The stored samples as a new array of their own (for another thread, which takes its buffer). */
  copy(): Pcm {
    return this.stored instanceof PcmFile ? this.stored.read(0, this.length) : this.stored.slice();
  }

  /** Lets the samples' file go (nothing for samples in memory); the samples cannot be read after it. */
  close(): void {
    if (this.stored instanceof PcmFile) this.stored.close();
  }
}
