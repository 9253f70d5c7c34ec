// Reading plain PCM and float WAV files that are already at the engine's rate in-process, without the
// two child processes (ffprobe, then ffmpeg) that any other input costs. Most research recordings are such
// files (TIMIT, Buckeye, most corpora are 16 kHz mono PCM). The samples are converted exactly as ffmpeg's
// `-f f32le -ac 1` path converts them, and read in chunks so a long file never exists twice in memory as
// bytes and floats. Anything else (another rate, a compressed codec, an odd header) returns null and goes
// through ffmpeg as before.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { endianness } from 'node:os';
import { AudioError } from './audio-file.ts';
import type { ProbeInfo } from './audio-file.ts';
import { toS16 } from './pcm.ts';

const PCM = 1;
const IEEE_FLOAT = 3;
const EXTENSIBLE = 0xfffe;
const CHUNK_BYTES = 1 << 20;

interface WavFormat {
  encoding: 'int' | 'float';
  bits: 8 | 16 | 24 | 32 | 64;
  channels: number;
  sampleRate: number;
  dataOffset: number;
  dataBytes: number;
}

/** ffprobe's codec names, so a WAV read here is described exactly as one read through ffmpeg. */
function codecName(f: WavFormat): string {
  if (f.encoding === 'float') return f.bits === 64 ? 'pcm_f64le' : 'pcm_f32le';
  return f.bits === 8 ? 'pcm_u8' : `pcm_s${f.bits}le`;
}

function readAt(fd: number, offset: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  const n = readSync(fd, buf, 0, length, offset);
  return buf.subarray(0, n);
}

/** Walks the RIFF chunks to `fmt ` and `data`; null when the file is not a WAV this reader handles. */
function readFormat(fd: number, fileSize: number): WavFormat | null {
  const head = readAt(fd, 0, 12);
  if (
    head.length < 12 ||
    head.toString('latin1', 0, 4) !== 'RIFF' ||
    head.toString('latin1', 8, 12) !== 'WAVE'
  )
    return null;
  let offset = 12;
  let fmt: Omit<WavFormat, 'dataOffset' | 'dataBytes'> | null = null;
  while (offset + 8 <= fileSize) {
    const h = readAt(fd, offset, 8);
    if (h.length < 8) return null;
    const id = h.toString('latin1', 0, 4);
    const size = h.readUInt32LE(4);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16) return null;
      const b = readAt(fd, body, Math.min(size, 40));
      let tag = b.readUInt16LE(0);
      const channels = b.readUInt16LE(2);
      const sampleRate = b.readUInt32LE(4);
      const blockAlign = b.readUInt16LE(12);
      const bits = b.readUInt16LE(14);
      if (tag === EXTENSIBLE) {
        if (b.length < 40) return null;
        // the sub-format GUID starts with the plain format tag
        tag = b.readUInt16LE(24);
        const validBits = b.readUInt16LE(18);
        if (validBits !== 0 && validBits !== bits) return null;
      }
      const encoding = tag === PCM ? 'int' : tag === IEEE_FLOAT ? 'float' : null;
      if (!encoding || channels < 1 || sampleRate < 1) return null;
      const okBits = encoding === 'int' ? [8, 16, 24, 32] : [32, 64];
      if (!okBits.includes(bits) || blockAlign !== (channels * bits) / 8) return null;
      fmt = { encoding, bits: bits as WavFormat['bits'], channels, sampleRate };
    } else if (id === 'data') {
      if (!fmt) return null;
      // Streamed WAVs carry 0 or 0xFFFFFFFF here: the data runs to the end of the file.
      const available = fileSize - body;
      const declared = size === 0 || size === 0xffffffff ? available : Math.min(size, available);
      const frame = (fmt.channels * fmt.bits) / 8;
      return { ...fmt, dataOffset: body, dataBytes: declared - (declared % frame) };
    }
    offset = body + size + (size % 2);
  }
  return null;
}

/**
 * What ffprobe would say of a PCM or float WAV at any rate and channel count, read from its header alone;
 * null for every other file (the caller asks ffprobe). Saves a child process per file where only the
 * duration and rate are needed (the job bounds, the upload checks).
 */
export function probeWav(path: string): ProbeInfo | null {
  return withFile(path, (fd) => {
    const f = readFormat(fd, fstatSync(fd).size);
    if (!f || f.dataBytes === 0) return null;
    return describe(f, f.dataBytes / ((f.bits / 8) * f.channels));
  });
}

/** Runs `read` on the file opened for reading, and closes it; null when it cannot be opened. */
function withFile<T>(path: string, read: (fd: number) => T | null): T | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    return read(fd);
  } finally {
    closeSync(fd);
  }
}

function describe(f: WavFormat, frames: number): ProbeInfo {
  return {
    format: 'wav',
    duration: frames / f.sampleRate,
    sampleRate: f.sampleRate,
    channels: f.channels,
    codec: codecName(f),
  };
}

/**
 * Decodes `path` when it is a mono or stereo PCM (8, 16, 24, 32-bit) or float (32, 64-bit) WAV at `rate`,
 * to the mono float samples ffmpeg would give; null for every other file (the caller uses ffmpeg).
 */
export function readWavAtRate(
  path: string,
  rate: number,
): { samples: Float32Array; probe: ProbeInfo } | null {
  return readWav(
    path,
    rate,
    (n) => new Float32Array(n),
    (out, i, x) => (out[i] = x),
  );
}

/**
 * As readWavAtRate, to 16-bit integers: those floats rounded to the nearest 16-bit value (ties to even,
 * clipped), which leaves a 16-bit mono file's own values.
 */
export function readWavAtRate16(
  path: string,
  rate: number,
): { samples: Int16Array; probe: ProbeInfo } | null {
  return readWav(
    path,
    rate,
    (n) => new Int16Array(n),
    (out, i, x) => (out[i] = toS16(x)),
  );
}

/** Typed arrays read WAV's little-endian samples as they are on this machine. */
const LITTLE_ENDIAN = endianness() === 'LE';

function readWav<A extends Float32Array | Int16Array>(
  path: string,
  rate: number,
  make: (frames: number) => A,
  put: (out: A, i: number, x: number) => void,
): { samples: A; probe: ProbeInfo } | null {
  return withFile(path, (fd) => {
    const f = readFormat(fd, fstatSync(fd).size);
    // Mono, or stereo mixed down as ffmpeg's `-ac 1` does (each channel times 1/sqrt(2)); ffmpeg's
    // matrices for more channels depend on the layout, so those files still go through ffmpeg.
    if (!f || f.sampleRate !== rate || f.dataBytes === 0 || f.channels > 2) return null;
    const bytesPerSample = f.bits / 8;
    const frameBytes = bytesPerSample * f.channels;
    const frames = f.dataBytes / frameBytes;
    const samples = make(frames);
    const read = sampleReader(f);
    const chunkFrames = Math.max(1, Math.floor(CHUNK_BYTES / frameBytes));
    // in float32 arithmetic (double for 64-bit files), as ffmpeg's rematrix does, so both paths give the
    // same samples bit for bit
    const gain = Math.fround(Math.SQRT1_2);
    const f32 = Math.fround;
    for (let start = 0; start < frames; start += chunkFrames) {
      const count = Math.min(chunkFrames, frames - start);
      const buf = readAt(fd, f.dataOffset + start * frameBytes, count * frameBytes);
      const got = Math.floor(buf.length / frameBytes);
      if (f.channels === 1 && f.encoding !== 'float' && f.bits === 16 && LITTLE_ENDIAN) {
        // the common case without a call per sample: the chunk read as 16-bit integers (WAV's byte order)
        const ints =
          buf.byteOffset % 2 === 0
            ? new Int16Array(buf.buffer, buf.byteOffset, got)
            : new Int16Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + got * 2));
        if (samples instanceof Int16Array) samples.set(ints, start);
        else for (let i = 0; i < got; i++) samples[start + i] = ints[i]! / 32768;
        if (got < count) return null;
        continue;
      }
      for (let i = 0; i < got; i++) {
        const at = i * frameBytes;
        let x: number;
        if (f.channels === 1) x = read(buf, at);
        else if (f.bits === 64)
          x = read(buf, at) * Math.SQRT1_2 + read(buf, at + bytesPerSample) * Math.SQRT1_2;
        else x = f32(f32(f32(read(buf, at)) * gain) + f32(f32(read(buf, at + bytesPerSample)) * gain));
        // NaN or infinity decodes to nothing a person said (issue 27, item 14): refused, not aligned
        if (!Number.isFinite(x)) throw notFinite();
        put(samples, start + i, x);
      }
      if (got < count) return null;
    }
    return { samples, probe: describe(f, frames) };
  });
}

export const NOT_FINITE_MESSAGE = 'the audio holds samples that are not numbers (NaN or infinity)';

function notFinite(): AudioError {
  return new AudioError('decode_failed', NOT_FINITE_MESSAGE);
}

/**
 * Whether a float WAV holds a NaN or an infinite sample: true or false for a float WAV, null for any
 * other file (integer samples are always finite). Reads the samples' exponent bits a megabyte at a
 * time, asynchronously, so a 50 MB upload is checked without holding the event loop.
 */
export async function wavHoldsNonFinite(path: string): Promise<boolean | null> {
  const f = withFile(path, (fd) => readFormat(fd, fstatSync(fd).size));
  if (!f || f.encoding !== 'float') return null;
  const width = f.bits / 8;
  // the byte holding the sign and the exponent's top bits, and the next one down (little-endian)
  const hi = width - 1;
  const lo = width - 2;
  const lowMask = width === 4 ? 0x80 : 0xf0;
  const fh = await open(path, 'r');
  try {
    const chunk = Buffer.alloc(CHUNK_BYTES - (CHUNK_BYTES % width));
    for (let done = 0; done < f.dataBytes;) {
      const want = Math.min(chunk.length, f.dataBytes - done);
      const { bytesRead } = await fh.read(chunk, 0, want, f.dataOffset + done);
      if (bytesRead <= 0) break;
      // an exponent of all ones is an infinity or a NaN
      for (let at = 0; at + width <= bytesRead; at += width)
        if ((chunk[at + hi]! & 0x7f) === 0x7f && (chunk[at + lo]! & lowMask) === lowMask) return true;
      done += bytesRead;
    }
    return false;
  } finally {
    await fh.close();
  }
}

function sampleReader(f: WavFormat): (buf: Buffer, at: number) => number {
  if (f.encoding === 'float')
    return f.bits === 64 ? (b, at) => b.readDoubleLE(at) : (b, at) => b.readFloatLE(at);
  switch (f.bits) {
    case 8:
      return (b, at) => (b[at]! - 128) / 128;
    case 16:
      return (b, at) => b.readInt16LE(at) / 32768;
    case 24:
      return (b, at) => b.readIntLE(at, 3) / 8388608;
    default:
      return (b, at) => b.readInt32LE(at) / 2147483648;
  }
}

/** The sample encodings this writer makes. */
export type WavSample = 'int16' | 'float32' | 'float64';

const SAMPLE_LAYOUT: Record<WavSample, { tag: number; bits: number }> = {
  int16: { tag: PCM, bits: 16 },
  float32: { tag: IEEE_FLOAT, bits: 32 },
  float64: { tag: IEEE_FLOAT, bits: 64 },
};

/**
 * The canonical 44-byte header of a mono WAV holding `dataBytes` of samples. The sizes saturate at
 * 4 GiB, so a header may announce more data than follows (the hostile-upload tests send such files).
 */
export function wavHeader(dataBytes: number, sampleRate: number, sample: WavSample = 'int16'): Buffer {
  const { tag, bits } = SAMPLE_LAYOUT[sample];
  const width = bits / 8;
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(Math.min(0xffffffff, 36 + dataBytes), 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16); // the fmt chunk's size
  h.writeUInt16LE(tag, 20);
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * width, 28); // bytes per second
  h.writeUInt16LE(width, 32); // block align
  h.writeUInt16LE(bits, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(Math.min(0xffffffff, dataBytes), 40);
  return h;
}

/** A mono 16-bit PCM WAV file's bytes: the header, then the samples. The one WAV writer of the repository. */
export function wavBytes16(samples: Int16Array, sampleRate: number): Buffer {
  const out = Buffer.alloc(44 + samples.length * 2);
  wavHeader(samples.length * 2, sampleRate, 'int16').copy(out);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i]!, 44 + 2 * i);
  return out;
}

/** A mono IEEE-float WAV file's bytes (32 or 64-bit, as the array): NaN and infinities written as given. */
export function wavBytesFloat(samples: Float32Array | Float64Array, sampleRate: number): Buffer {
  const wide = samples instanceof Float64Array;
  const width = wide ? 8 : 4;
  const out = Buffer.alloc(44 + samples.length * width);
  wavHeader(samples.length * width, sampleRate, wide ? 'float64' : 'float32').copy(out);
  for (let i = 0; i < samples.length; i++)
    if (wide) out.writeDoubleLE(samples[i]!, 44 + width * i);
    else out.writeFloatLE(samples[i]!, 44 + width * i);
  return out;
}
