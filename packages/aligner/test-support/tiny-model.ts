// Test support: a tiny ONNX stand-in for the MMS export (input `input_values` [batch, samples], output
// `logits` [batch, frames, 31], frames = floor((samples - 400) / 320) + 1, the real vocabulary) whose
// emissions spell whatever letters the synthetic audio encodes. Each letter is a pure tone with an integer
// number of cycles per 400-sample frame; the graph correlates every frame with a sine and cosine per letter
// (a 400-tap, stride-320 Conv), sums their squares (phase-free energy) and scales them into logits. Silence
// leaves only the blank's bias, so the blank wins there, as in a real CTC model. Per-window normalisation
// changes a tone's amplitude but not which letter wins.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeOnnxModel } from '../src/onnx/encode.ts';
import { FIRST_LETTER, MMS_VOCAB, letterId } from '../src/acoustic/mms/vocab.ts';
import type { SampleSource } from '../src/acoustic/mms/emissions.ts';
import { romanizeWord } from '../src/romanize/romanize.ts';

const WIN = 400;
const HOP = 320;
const V = MMS_VOCAB.length;
const LETTERS = V - FIRST_LETTER;

/** Cycles per 400-sample frame of a letter's tone: distinct integers, so tones are orthogonal over a frame. */
const cyclesOf = (id: number): number => id - 1;

export function buildTinyMmsModel(opts: { blankBias?: number; scale?: number } = {}): Uint8Array {
  const blankBias = opts.blankBias ?? 6;
  // Energy of a unit-variance tone (amplitude sqrt 2) filling the frame is 2 * 200^2; map it to about 20.
  const scale = opts.scale ?? 10 / (200 * 200);
  const w = new Float32Array(2 * LETTERS * WIN);
  for (let l = 0; l < LETTERS; l++) {
    const c = cyclesOf(l + FIRST_LETTER);
    for (let n = 0; n < WIN; n++) {
      w[2 * l * WIN + n] = Math.sin((2 * Math.PI * c * n) / WIN);
      w[(2 * l + 1) * WIN + n] = Math.cos((2 * Math.PI * c * n) / WIN);
    }
  }
  const m = new Float32Array(2 * LETTERS * V);
  for (let l = 0; l < LETTERS; l++) {
    m[2 * l * V + l + FIRST_LETTER] = scale;
    m[(2 * l + 1) * V + l + FIRST_LETTER] = scale;
  }
  const bias = new Float32Array(V);
  bias[0] = blankBias;
  for (let k = 1; k < FIRST_LETTER; k++) bias[k] = -5;
  return encodeOnnxModel({
    inputs: [{ name: 'input_values', shape: ['batch', 'samples'] }],
    outputs: [{ name: 'logits', shape: ['batch', 'frames', V] }],
    initializers: [
      { name: 'axes', dims: [1], data: BigInt64Array.from([1n]) },
      { name: 'w', dims: [2 * LETTERS, 1, WIN], data: w },
      { name: 'm', dims: [2 * LETTERS, V], data: m },
      { name: 'bias', dims: [V], data: bias },
    ],
    nodes: [
      { op: 'Unsqueeze', inputs: ['input_values', 'axes'], outputs: ['x'] },
      {
        op: 'Conv',
        inputs: ['x', 'w'],
        outputs: ['c'],
        attrs: { strides: { ints: [HOP] }, kernel_shape: { ints: [WIN] } },
      },
      { op: 'Mul', inputs: ['c', 'c'], outputs: ['e'] },
      { op: 'Transpose', inputs: ['e'], outputs: ['et'], attrs: { perm: { ints: [0, 2, 1] } } },
      { op: 'MatMul', inputs: ['et', 'm'], outputs: ['s'] },
      { op: 'Add', inputs: ['s', 'bias'], outputs: ['logits'] },
    ],
  });
}

/** vocab.json as the hub export ships it ({token: id}). */
export function vocabJson(): string {
  return JSON.stringify(Object.fromEntries(MMS_VOCAB.map((t, i) => [t, i])));
}

/** Writes the tiny model into `dir` with the hub repository's layout, as `models pull` leaves it. */
export function installTinyModel(dir: string, file = 'onnx/model_quantized.onnx'): string {
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, file), buildTinyMmsModel());
  writeFileSync(join(dir, 'vocab.json'), vocabJson());
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'wav2vec2', vocab_size: V }));
  writeFileSync(
    join(dir, 'preprocessor_config.json'),
    JSON.stringify({ do_normalize: true, sampling_rate: 16000, feature_size: 1, padding_value: 0 }),
  );
  return join(dir, file);
}

/**
 * A fresh models folder that this process's engine uses (TAZAMUN_MODELS_DIR, where `models pull` leaves
 * models and where the CLI and the worker look), with the tiny model installed as MMS unless `install` is
 * false. `restore` removes the folder and puts the variable back. node --test runs each file in its own
 * process.
 */
export function useModelsDir(install = true): { dir: string; restore: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'tz-models-'));
  const before = process.env.TAZAMUN_MODELS_DIR;
  if (install) installTinyModel(join(dir, 'mms'));
  process.env.TAZAMUN_MODELS_DIR = dir;
  return {
    dir,
    restore: () => {
      rmSync(dir, { recursive: true, force: true });
      if (before === undefined) delete process.env.TAZAMUN_MODELS_DIR;
      else process.env.TAZAMUN_MODELS_DIR = before;
    },
  };
}

/** A stretch of synthetic audio: a letter's tone (or silence when `letter` is absent) lasting `frames` frames. */
export interface ToneSegment {
  letter?: string;
  frames: number;
}

function segmentValue(letter: string | undefined, amplitude: number, n: number): number {
  if (!letter) return 0;
  const id = letterId(letter);
  if (id === undefined) throw new Error(`no tone for ${JSON.stringify(letter)}`);
  return amplitude * Math.sin((2 * Math.PI * cyclesOf(id) * n) / WIN);
}

/** Renders segments into samples; frame f of the output covers samples [320 f, 320 f + 400). */
export function synthesize(segments: ToneSegment[], amplitude = 0.3): Float32Array {
  const total = segments.reduce((a, s) => a + s.frames, 0) * HOP;
  const out = new Float32Array(total);
  let o = 0;
  for (const s of segments) {
    for (let i = 0; i < s.frames * HOP; i++) out[o + i] = segmentValue(s.letter, amplitude, o + i);
    o += s.frames * HOP;
  }
  return out;
}

/** A long source repeating `segments` without ever holding more than one period and the requested range. */
export function repeatingSource(
  segments: ToneSegment[],
  totalSamples: number,
  amplitude = 0.3,
): SampleSource {
  // Tones have whole cycles per 400 samples, so a period that is a multiple of 400 repeats exactly.
  let one = synthesize(segments, amplitude);
  while (one.length % WIN !== 0) one = Float32Array.from([...one, ...synthesize(segments, amplitude)]);
  const period = one.length;
  return {
    length: totalSamples,
    read(start, end) {
      const out = new Float32Array(end - start);
      let o = 0;
      for (let i = start; i < end;) {
        const p = i % period;
        const n = Math.min(period - p, end - i);
        out.set(one.subarray(p, p + n), o);
        o += n;
        i += n;
      }
      return out;
    },
  };
}

/**
 * Audio that speaks `words` (their romanised letters as tones, `letterFrames` frames each), with `gap`
 * silent frames around each word, and the frames where each word's tones start and end.
 */
export function speakWords(
  words: string[],
  letterFrames = 3,
  gap = 10,
): { audio: Float32Array; onsets: number[]; offsets: number[] } {
  const segs: ToneSegment[] = [{ frames: gap }];
  const onsets: number[] = [];
  const offsets: number[] = [];
  let f = gap;
  for (const w of words) {
    onsets.push(f);
    let prev = '';
    for (const ch of romanizeWord(w).text) {
      // A repeated letter is two spikes with a blank between, as a CTC model emits it.
      if (ch === prev) {
        segs.push({ frames: 1 });
        f += 1;
      }
      segs.push({ letter: ch, frames: letterFrames });
      f += letterFrames;
      prev = ch;
    }
    offsets.push(f);
    segs.push({ frames: gap });
    f += gap;
  }
  return { audio: synthesize(segs), onsets, offsets };
}
