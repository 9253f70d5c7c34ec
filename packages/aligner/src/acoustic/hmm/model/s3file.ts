// Sphinx-3 binary parameter files (means, variances, mixture_weights, transition_matrices): a text header
// ("s3", "key value" lines, "endhdr"), a 32-bit byte-order mark, then int32 dimensions and float32 data,
// optionally followed by a checksum of every 32-bit word read (header key `chksum0`). Read here from the
// published format; written back in the same form by model adaptation (issue 31), so that an adapted
// model is a folder any Sphinx tool reads.
import { EngineError } from '../../../errors.ts';

const BYTE_ORDER_MAGIC = 0x11223344;

export interface S3File {
  header: Map<string, string>;
  view: DataView;
  /** byte offset of the first value after the byte-order mark */
  offset: number;
  littleEndian: boolean;
  path: string;
}

function bad(path: string, why: string): EngineError {
  return new EngineError('engine_fault', `the model file ${path} cannot be read: ${why}`);
}

/** The header and the start of the data of an s3 file. */
export function openS3(bytes: Uint8Array, path: string): S3File {
  const firstLine = bytes.indexOf(0x0a);
  if (firstLine < 0) throw bad(path, 'no header');
  const header = new Map<string, string>();
  let p: number;
  const text = (a: number, b: number) =>
    Buffer.from(bytes.buffer, bytes.byteOffset + a, b - a).toString('latin1');
  if (text(0, firstLine) === 's3') {
    p = firstLine + 1;
    for (;;) {
      const nl = bytes.indexOf(0x0a, p);
      if (nl < 0) throw bad(path, 'header without endhdr');
      const line = text(p, nl).trim();
      p = nl + 1;
      if (line === 'endhdr') break;
      if (line === '' || line.startsWith('#')) continue;
      const [key, value] = line.split(/\s+/, 2);
      header.set(key!, value ?? '');
    }
  } else {
    // The old format: a version line, then comment lines up to "*end_comment*".
    header.set('version', text(0, firstLine).trim());
    const end = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf('*end_comment*\n');
    if (end < 0) throw bad(path, 'old-style header without *end_comment*');
    p = end + '*end_comment*\n'.length;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (p + 4 > bytes.length) throw bad(path, 'truncated before the byte-order mark');
  let littleEndian: boolean;
  if (view.getUint32(p, true) === BYTE_ORDER_MAGIC) littleEndian = true;
  else if (view.getUint32(p, false) === BYTE_ORDER_MAGIC) littleEndian = false;
  else throw bad(path, 'bad byte-order mark');
  return { header, view, offset: p + 4, littleEndian, path };
}

/** A cursor over an s3 file's int32 and float32 values. */
export class S3Reader {
  private at: number;
  constructor(private readonly f: S3File) {
    this.at = f.offset;
  }

  int(): number {
    this.need(4);
    const v = this.f.view.getInt32(this.at, this.f.littleEndian);
    this.at += 4;
    return v;
  }

  floats(n: number): Float32Array {
    this.need(n * 4);
    const out = new Float32Array(n);
    const { view, littleEndian } = this.f;
    for (let i = 0; i < n; i++) out[i] = view.getFloat32(this.at + i * 4, littleEndian);
    this.at += n * 4;
    return out;
  }

  private need(bytes: number): void {
    if (this.at + bytes > this.f.view.byteLength) throw bad(this.f.path, 'truncated data');
  }
}

/** Gaussian parameters: [codebook][stream][density][dim], flattened, with each stream's length. */
export interface GaussianFile {
  nCodebooks: number;
  nStreams: number;
  nDensities: number;
  streamLengths: number[];
  /** values in [codebook][stream][density][dim] order */
  data: Float32Array;
}

export function readGaussians(bytes: Uint8Array, path: string): GaussianFile {
  const r = new S3Reader(openS3(bytes, path));
  const nCodebooks = r.int();
  const nStreams = r.int();
  const nDensities = r.int();
  if (nCodebooks <= 0 || nStreams <= 0 || nDensities <= 0 || nStreams > 64)
    throw bad(path, `implausible dimensions ${nCodebooks} x ${nStreams} x ${nDensities}`);
  const streamLengths = Array.from({ length: nStreams }, () => r.int());
  const total = r.int();
  const blk = streamLengths.reduce((a, b) => a + b, 0);
  if (total !== nCodebooks * nDensities * blk)
    throw bad(path, `${total} values where the header announces ${nCodebooks} x ${nDensities} x ${blk}`);
  return { nCodebooks, nStreams, nDensities, streamLengths, data: r.floats(total) };
}

/** Transition matrices: [tmat][from][to] probabilities (from: emitting states, to: emitting + exit). */
export interface TransitionFile {
  nTmat: number;
  nFrom: number;
  nTo: number;
  data: Float32Array;
}

export function readTransitions(bytes: Uint8Array, path: string): TransitionFile {
  const r = new S3Reader(openS3(bytes, path));
  const nTmat = r.int();
  const nFrom = r.int();
  const nTo = r.int();
  const total = r.int();
  if (nTmat <= 0 || nFrom <= 0 || nTo !== nFrom + 1 || total !== nTmat * nFrom * nTo)
    throw bad(path, `implausible transition dimensions ${nTmat} x ${nFrom} x ${nTo} (${total})`);
  return { nTmat, nFrom, nTo, data: r.floats(total) };
}

/** Mixture weights as probabilities: [senone][stream][density]. */
export interface MixtureFile {
  nSenones: number;
  nStreams: number;
  nDensities: number;
  data: Float32Array;
}

export function readMixtureWeights(bytes: Uint8Array, path: string): MixtureFile {
  const r = new S3Reader(openS3(bytes, path));
  const nSenones = r.int();
  const nStreams = r.int();
  const nDensities = r.int();
  const total = r.int();
  if (total !== nSenones * nStreams * nDensities)
    throw bad(path, `${total} weights where the header announces ${nSenones} x ${nStreams} x ${nDensities}`);
  return { nSenones, nStreams, nDensities, data: r.floats(total) };
}

/** The checksum Sphinx tools verify (bio.c's rotate-and-add over every 32-bit word). */
function checksum(words: Uint32Array, sum: number): number {
  for (let i = 0; i < words.length; i++) sum = (((sum << 20) | (sum >>> 12)) + words[i]!) >>> 0;
  return sum;
}

/**
 * An s3 file: header, byte-order mark, int32 dimensions then float32 data, and the checksum of both
 * (little-endian, as pocketsphinx's own models).
 */
export function writeS3(
  dims: number[],
  data: Float32Array,
  extraHeader: Record<string, string> = {},
): Buffer {
  const head = [
    's3',
    'version 1.0',
    'chksum0 yes',
    ...Object.entries(extraHeader).map(([k, v]) => `${k} ${v}`),
  ];
  const text = Buffer.from(`${head.join('\n')}\nendhdr\n`, 'latin1');
  const body = new Uint32Array(1 + dims.length + data.length + 1);
  body[0] = BYTE_ORDER_MAGIC;
  const ints = new Int32Array(body.buffer, 4, dims.length);
  ints.set(dims);
  new Float32Array(body.buffer, 4 + dims.length * 4, data.length).set(data);
  const sum = checksum(body.subarray(1, body.length - 1), 0);
  body[body.length - 1] = sum;
  return Buffer.concat([text, Buffer.from(body.buffer)]);
}
