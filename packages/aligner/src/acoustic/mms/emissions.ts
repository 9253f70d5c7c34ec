// Runs the MMS wav2vec2 model over the audio in windows and stitches the frames into one emission matrix of
// log-probabilities (frames x vocabulary, 20 ms frames). Each window is read with a few seconds of context on
// both sides so the transformer sees the same neighbourhood a whole-file pass would, and only the frames of
// its core are kept: memory holds one window of samples plus the emission matrix (124 bytes per 20 ms frame,
// about 22 MB per hour), never the model's activations for the whole file.
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { nativeCall } from '../../native-guard.ts';
import { onnxRuntime } from '../../onnx/runtime.ts';

export const MMS_SAMPLE_RATE = 16000;
/** Samples per output frame: the product of the wav2vec2 feature encoder's conv strides (5*2*2*2*2*2*2). */
export const FRAME_STRIDE = 320;
export const FRAME_SECONDS = FRAME_STRIDE / MMS_SAMPLE_RATE;
/** Receptive field of the conv feature encoder in samples (first output frame needs this many samples). */
export const RECEPTIVE_FIELD = 400;

const CONV_LAYERS: readonly (readonly [kernel: number, stride: number])[] = [
  [10, 5],
  [3, 2],
  [3, 2],
  [3, 2],
  [3, 2],
  [2, 2],
  [2, 2],
];

/** Output frames of the wav2vec2 feature encoder for `samples` input samples (the exact conv formula). */
export function wav2vec2Frames(samples: number): number {
  let n = samples;
  for (const [k, s] of CONV_LAYERS) {
    if (n < k) return 0;
    n = Math.floor((n - k) / s) + 1;
  }
  return n;
}

/** Random access to 16 kHz mono samples; lets a long file be read window by window. */
export interface SampleSource {
  readonly length: number;
  read(start: number, end: number): Float32Array;
}

export function arraySource(samples: Float32Array): SampleSource {
  return { length: samples.length, read: (s, e) => samples.subarray(s, e) };
}

export interface Emissions {
  frames: number;
  vocab: number;
  /** row-major frames x vocab natural-log probabilities */
  logProbs: Float32Array;
}

export interface EmissionOptions {
  /** core length of one window in seconds */
  windowSeconds: number;
  /** context read on each side of the core, in seconds */
  contextSeconds: number;
  /** zero mean, unit variance per window (the export's preprocessor_config.json `do_normalize`) */
  normalize: boolean;
  /** called after each window with (frames done, frames total) */
  onProgress?: (done: number, total: number) => void;
}

export const DEFAULT_EMISSION_OPTIONS: EmissionOptions = {
  windowSeconds: 30,
  contextSeconds: 2,
  normalize: true,
};

export interface MmsModel {
  readonly path: string;
  readonly session: InferenceSession;
  readonly vocab: number;
}

const sessions = new Map<string, Promise<MmsModel>>();

/** Loads an ONNX export once per path and checks it has the MMS model's input and output. */
export function loadMmsModel(path: string, vocab: number): Promise<MmsModel> {
  let p = sessions.get(path);
  if (!p) {
    p = (async () => {
      const ort = await onnxRuntime();
      const session = await nativeCall(() =>
        ort.InferenceSession.create(path, { graphOptimizationLevel: 'all' }),
      );
      if (!session.inputNames.includes('input_values') || !session.outputNames.includes('logits')) {
        throw new Error(
          `${path}: expected input "input_values" and output "logits", found [${session.inputNames.join(', ')}] -> [${session.outputNames.join(', ')}]`,
        );
      }
      return { path, session, vocab };
    })();
    sessions.set(path, p);
    p.catch(() => sessions.delete(path));
  }
  return p;
}

/** Zero mean, unit variance over the window, as Wav2Vec2FeatureExtractor(do_normalize=True) does. */
export function normalizeWindow(x: Float32Array): Float32Array {
  let mean = 0;
  for (let i = 0; i < x.length; i++) mean += x[i]!;
  mean /= x.length || 1;
  let v = 0;
  for (let i = 0; i < x.length; i++) v += (x[i]! - mean) ** 2;
  v /= x.length || 1;
  const inv = 1 / Math.sqrt(v + 1e-7);
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = (x[i]! - mean) * inv;
  return out;
}

async function runWindow(
  model: MmsModel,
  samples: Float32Array,
  normalize: boolean,
): Promise<{ frames: number; logits: Float32Array }> {
  const ort = await onnxRuntime();
  const input = normalize ? normalizeWindow(samples) : samples.slice();
  const feeds: Record<string, Tensor> = {
    input_values: new ort.Tensor('float32', input, [1, samples.length]),
  };
  // Some exports take a mask too; the window is never padded, so it is all ones.
  if (model.session.inputNames.includes('attention_mask')) {
    feeds.attention_mask = new ort.Tensor('int64', new BigInt64Array(samples.length).fill(1n), [
      1,
      samples.length,
    ]);
  }
  const out = await nativeCall(() => model.session.run(feeds));
  const t = out.logits!;
  const dims = t.dims;
  if (dims.length !== 3 || dims[2] !== model.vocab) {
    throw new Error(`model output has shape [${dims.join(', ')}], expected [1, frames, ${model.vocab}]`);
  }
  return { frames: dims[1]!, logits: t.data as Float32Array };
}

function logSoftmaxInto(
  src: Float32Array,
  srcOff: number,
  dst: Float32Array,
  dstOff: number,
  v: number,
): void {
  let max = -Infinity;
  for (let k = 0; k < v; k++) max = Math.max(max, src[srcOff + k]!);
  let sum = 0;
  for (let k = 0; k < v; k++) sum += Math.exp(src[srcOff + k]! - max);
  const lse = max + Math.log(sum);
  for (let k = 0; k < v; k++) dst[dstOff + k] = src[srcOff + k]! - lse;
}

export async function computeEmissions(
  model: MmsModel,
  source: SampleSource,
  options: Partial<EmissionOptions> = {},
): Promise<Emissions> {
  const opts = { ...DEFAULT_EMISSION_OPTIONS, ...options };
  const n = source.length;
  const total = wav2vec2Frames(n);
  if (total === 0)
    throw new Error(`the audio is too short for the MMS model (${n} samples, needs ${RECEPTIVE_FIELD})`);
  // Window edges on frame boundaries, so local frame j of a window is global frame start/320 + j.
  const core = Math.max(1, Math.round((opts.windowSeconds * MMS_SAMPLE_RATE) / FRAME_STRIDE)) * FRAME_STRIDE;
  const ctx = Math.max(1, Math.ceil((opts.contextSeconds * MMS_SAMPLE_RATE) / FRAME_STRIDE)) * FRAME_STRIDE;
  const v = model.vocab;
  const logProbs = new Float32Array(total * v);
  for (let coreStart = 0; coreStart < n; coreStart += core) {
    const coreEnd = Math.min(n, coreStart + core);
    const readStart = Math.max(0, coreStart - ctx);
    const readEnd = Math.min(n, coreEnd + ctx);
    const { frames, logits } = await runWindow(model, source.read(readStart, readEnd), opts.normalize);
    const first = coreStart / FRAME_STRIDE;
    const last = Math.min(total, Math.ceil(coreEnd / FRAME_STRIDE));
    const base = readStart / FRAME_STRIDE;
    for (let g = first; g < last; g++) {
      // A window shorter than its context can lack its final frames (the model needs 400 samples per frame).
      const j = Math.min(g - base, frames - 1);
      logSoftmaxInto(logits, j * v, logProbs, g * v, v);
    }
    opts.onProgress?.(last, total);
  }
  return { frames: total, vocab: v, logProbs };
}

/** Frames [first, end) of an emission matrix, as a view that shares its memory. */
export function sliceEmissions(em: Emissions, first: number, end: number): Emissions {
  return {
    frames: end - first,
    vocab: em.vocab,
    logProbs: em.logProbs.subarray(first * em.vocab, end * em.vocab),
  };
}
