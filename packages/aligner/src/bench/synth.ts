// Synthetic calibration sets: Arabic speech made with eSpeak NG (the WASM build the engine already
// depends on), with each word's exact start and end taken from the synthesizer's own word and phoneme
// events, in the dev sets' format (<uid>.wav + <uid>.json, see ../shared/eval/README.md). The Arabic dev
// set has 183 words and the IPA one 42; on so few words even a perfectly calibrated confidence shows an
// expected calibration error of 0.04 to 0.09 by chance alone (docs/benchmarks.md), so the calibration
// cannot be fitted or judged on them. These sets add about a thousand words each.
//
//   synth-ar         vowelled sentences (the transcript as written)
//   synth-ar-plain   other sentences, the transcript given without diacritics
//   synth-ipa        isolated words, the transcript in IPA (as a phonetician would type it)
//
// Other voices than the dev set's (eSpeak's +m1 +m2 +m4 +m5 +m6 +f1 +f4 +f5 variants; the dev set used
// +m3 +f3 +m7 +f2), speaking rates 120-190 words a minute, pitch 30-70, 0.15-0.6 s of silence around the
// speech, speech level -30 to -16 dBFS, and pink noise at 12-35 dB SNR, all drawn from a seeded generator:
// the same files come out on every machine. They are written under .cache/ (never committed) on first
// use by `npm run bench -- --mode quality`, or by
//   node --import tsx src/bench/synth.ts [--out DIR]
// Reference boundaries are the synthesizer's: a word starts at its first phoneme and ends at the first
// pause after it or where the next word begins. Synthetic speech is cleaner and more regular than real
// speech; figures on these sets say how well the confidence is calibrated on them, not on real voices.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ffmpegPath } from '../audio/decode.ts';
import { toS16 } from '../audio/pcm.ts';
import { wavBytes16 } from '../audio/wav.ts';
import { arabicPlain } from '../text/arabic.ts';
import { arabicPronunciationLattice, loadEspeakModule } from '../text/g2p.ts';
import { seeded, synthDir } from './common.ts';
import { arabicSentences, arabicWords } from './synth-text.ts';

export const SYNTH_SETS = ['synth-ar', 'synth-ar-plain', 'synth-ipa'] as const;
/** Bump when anything that changes the files changes: the cache is remade when this differs. */
const GENERATOR_VERSION = 1;
const SIZES = { 'synth-ar': 120, 'synth-ar-plain': 80 };
const VOICES = ['ar+m1', 'ar+f1', 'ar+m2', 'ar+f4', 'ar+m4', 'ar+f5', 'ar+m5', 'ar+m6'];
const RATE = 16000;

interface EspeakEvent {
  type: string;
  text_position: number;
  audio_position: number;
  id?: string | number;
}
interface SynthWorker {
  set_voice(name: string): number;
  set_rate(wpm: number): void;
  set_pitch(p: number): void;
  get_samplerate(): number;
  synthesize(text: string, cb: (audio: Int16Array, events: EspeakEvent[]) => number): void;
}
interface SynthModule {
  eSpeakNGWorker: new () => SynthWorker;
}

export interface SynthVoice {
  voice: string;
  rate: number;
  pitch: number;
}

export interface Synthesized {
  /** 16 kHz samples as floats, no padding */
  samples: Float32Array;
  /** per whitespace token of the text: [start, end] in seconds, null when eSpeak said nothing for it */
  words: ([number, number] | null)[];
}

let workerPromise: Promise<SynthWorker> | null = null;
function worker(): Promise<SynthWorker> {
  workerPromise ??= loadEspeakModule<SynthModule>().then((m) => new m.eSpeakNGWorker());
  return workerPromise;
}

/** Token spans [from, to) of the whitespace-separated tokens of `text`. */
function tokenSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  for (const m of text.matchAll(/\S+/g)) spans.push([m.index, m.index + m[0].length]);
  return spans;
}

/**
 * `text` spoken by eSpeak NG with `v`, resampled to 16 kHz by ffmpeg (a linear-phase filter: no time
 * shift), with each token's start and end from the synthesizer's events.
 */
export async function synthesize(text: string, v: SynthVoice): Promise<Synthesized> {
  const w = await worker();
  if (w.set_voice(v.voice) !== 0) throw new Error(`eSpeak NG has no voice ${v.voice}`);
  w.set_rate(v.rate);
  w.set_pitch(v.pitch);
  const chunks: Int16Array[] = [];
  const events: EspeakEvent[] = [];
  w.synthesize(text, (audio, evs) => {
    chunks.push(audio);
    events.push(...evs);
    return 0;
  });
  const sourceRate = w.get_samplerate();
  const total = chunks.reduce((a, c) => a + c.length, 0);
  const pcm = new Int16Array(total);
  let at = 0;
  for (const c of chunks) {
    pcm.set(c, at);
    at += c.length;
  }
  const r = spawnSync(
    ffmpegPath(),
    [
      '-v',
      'error',
      '-f',
      's16le',
      '-ar',
      String(sourceRate),
      '-ac',
      '1',
      '-i',
      'pipe:0',
      '-f',
      'f32le',
      '-ar',
      String(RATE),
      'pipe:1',
    ],
    { input: Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength), maxBuffer: 1 << 28 },
  );
  if (r.status !== 0) throw new Error(`ffmpeg: ${r.stderr.toString()}`);
  const out = r.stdout as Buffer;
  const samples = new Float32Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength));

  // Word events carry the (1-based, UTF-16) position of the word in the text; phoneme events follow it,
  // an empty or "_" phoneme being a pause; audio positions are milliseconds from the start.
  const spans = tokenSpans(text);
  const words: ([number, number] | null)[] = spans.map(() => null);
  const end = Math.max(...events.filter((e) => e.type === 'end').map((e) => e.audio_position), 0);
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.type !== 'word') continue;
    const token = spans.findIndex(([a, b]) => e.text_position - 1 >= a && e.text_position - 1 < b);
    if (token < 0) continue;
    let start: number | null = null;
    let stop: number | null = null;
    for (let k = i + 1; k < events.length; k++) {
      const f = events[k]!;
      if (f.type === 'word' || f.type === 'sentence') {
        stop ??= f.audio_position;
        break;
      }
      if (f.type !== 'phoneme') continue;
      const pause = f.id === '' || f.id === undefined || String(f.id).startsWith('_');
      if (!pause && start === null) start = f.audio_position;
      else if (pause && start !== null && stop === null) stop = f.audio_position;
    }
    stop ??= end;
    if (start === null || stop <= start) continue;
    // a number read as several words is one token: its span grows
    const prev = words[token];
    words[token] = prev ? [prev[0], stop / 1000] : [start / 1000, stop / 1000];
  }
  return { samples, words };
}

/** Pink noise (Paul Kellet's three-pole filter over white noise) from a seeded generator. */
function pinkNoise(n: number, rnd: () => number): Float32Array {
  const out = new Float32Array(n);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let i = 0; i < n; i++) {
    const white = rnd() * 2 - 1;
    b0 = 0.99765 * b0 + white * 0.099046;
    b1 = 0.963 * b1 + white * 0.2965164;
    b2 = 0.57 * b2 + white * 1.0526913;
    out[i] = b0 + b1 + b2 + white * 0.1848;
  }
  return out;
}

export interface Recording {
  samples: Int16Array;
  words: { start: number; end: number }[];
  duration: number;
  snrDb: number;
}

/**
 * A recording as the sets hold it: silence around the speech, the speech at a drawn level, pink noise at
 * a drawn SNR (relative to the power inside the words), 16 bits. Tokens eSpeak did not speak are dropped.
 */
export function makeRecording(s: Synthesized, rnd: () => number): Recording & { kept: number[] } {
  const lead = 0.15 + 0.45 * rnd();
  const trail = 0.15 + 0.45 * rnd();
  const levelDb = -30 + 14 * rnd();
  const snrDb = 12 + 23 * rnd();
  const offset = Math.round(lead * RATE);
  const n = offset + s.samples.length + Math.round(trail * RATE);
  const kept = s.words.flatMap((w, i) => (w ? [i] : []));
  const words = kept.map((i) => ({ start: s.words[i]![0] + lead, end: s.words[i]![1] + lead }));
  let power = 0;
  let count = 0;
  for (const w of words)
    for (let i = Math.round(w.start * RATE); i < Math.round(w.end * RATE) && i < n; i++) {
      const x = s.samples[i - offset] ?? 0;
      power += x * x;
      count++;
    }
  const rms = Math.sqrt(power / Math.max(1, count)) || 1e-4;
  const gain = 10 ** (levelDb / 20) / rms;
  const noise = pinkNoise(n, rnd);
  let noisePower = 0;
  for (const x of noise) noisePower += x * x;
  const noiseGain = (10 ** (levelDb / 20) / Math.sqrt(noisePower / n)) * 10 ** (-snrDb / 20);
  const samples = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    const speech = i >= offset && i - offset < s.samples.length ? s.samples[i - offset]! * gain : 0;
    samples[i] = toS16(speech + noise[i]! * noiseGain);
  }
  const r5 = (x: number) => Math.round(x * 1e5) / 1e5;
  return {
    samples,
    words: words.map((w) => ({ start: r5(w.start), end: r5(w.end) })),
    duration: r5(n / RATE),
    snrDb: Math.round(snrDb * 10) / 10,
    kept,
  };
}

/** IPA a phonetician would write for a vowelled Arabic word: the first reading of the engine's lattice. */
export function arabicIpa(word: string): string {
  return arabicPronunciationLattice(word)
    .map((alts) => alts[0] ?? '')
    .join('');
}

interface Utterance {
  uid: string;
  spoken: string;
  text: (tokens: string[]) => string;
  word: (token: string) => string;
  textIs?: string;
}

async function writeSet(dir: string, set: string, utts: Utterance[], rnd: () => number): Promise<void> {
  const setDir = join(dir, set);
  rmSync(setDir, { recursive: true, force: true });
  mkdirSync(setDir, { recursive: true });
  for (let i = 0; i < utts.length; i++) {
    const u = utts[i]!;
    const v: SynthVoice = {
      voice: VOICES[i % VOICES.length]!,
      rate: Math.round(120 + 70 * rnd()),
      pitch: Math.round(30 + 40 * rnd()),
    };
    const syn = await synthesize(u.spoken, v);
    const rec = makeRecording(syn, rnd);
    const tokens = u.spoken.split(/\s+/).filter(Boolean);
    const kept = rec.kept.map((k) => tokens[k]!);
    const words = rec.words
      .map((w, k) => ({ w: u.word(kept[k]!), ...w }))
      .filter((w) => w.w.replace(/[\p{P}\p{S}]/gu, '') !== '');
    writeFileSync(join(setDir, `${u.uid}.wav`), wavBytes16(rec.samples, RATE));
    writeFileSync(
      join(setDir, `${u.uid}.json`),
      JSON.stringify(
        {
          audio: `${u.uid}.wav`,
          text: u.text(tokens),
          ...(u.textIs ? { text_is: u.textIs } : {}),
          words,
          lang: 'ar',
          reference: 'synthetic',
          source: `eSpeak NG (WASM) ${v.voice}, generated by bench/synth.ts`,
          duration: rec.duration,
          voice: v.voice,
          rate_wpm: v.rate,
          pitch: v.pitch,
          snr_db: rec.snrDb,
          spoken: u.spoken,
        },
        null,
        1,
      ),
    );
  }
}

const strip = (t: string) => t.replace(/[.,،؛؟?!:]/g, '');

/** Writes the three sets under `dir` (removing what was there). */
export async function generateSynthSets(dir = synthDir(), scale = 1): Promise<void> {
  const rnd = seeded(2026);
  const nAr = Math.max(1, Math.round(SIZES['synth-ar'] * scale));
  const nPlain = Math.max(1, Math.round(SIZES['synth-ar-plain'] * scale));
  const sentences = arabicSentences(nAr + nPlain, rnd);
  // shuffle so the written sentences fall in both sets
  for (let i = sentences.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [sentences[i], sentences[j]] = [sentences[j]!, sentences[i]!];
  }
  const id = (p: string, i: number) => `${p}_${String(i + 1).padStart(3, '0')}`;
  await writeSet(
    dir,
    'synth-ar',
    sentences.slice(0, nAr).map((s, i) => ({ uid: id('sar', i), spoken: s, text: () => s, word: strip })),
    rnd,
  );
  await writeSet(
    dir,
    'synth-ar-plain',
    sentences.slice(nAr, nAr + nPlain).map((s, i) => ({
      uid: id('sarp', i),
      spoken: s,
      text: () => arabicPlain(s),
      word: (t) => arabicPlain(strip(t)),
    })),
    rnd,
  );
  const words = arabicWords();
  const nIpa = Math.max(1, Math.round(words.length * scale));
  await writeSet(
    dir,
    'synth-ipa',
    words.slice(0, nIpa).map((w, i) => ({
      uid: id('sipa', i),
      spoken: w,
      text: () => arabicIpa(w),
      word: () => arabicIpa(w),
      textIs: 'ipa',
    })),
    rnd,
  );
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ version: GENERATOR_VERSION, scale }));
}

/** The sets' folder, generated first when missing or made by another version of this file. */
export async function ensureSynthSets(dir = synthDir()): Promise<string> {
  const manifest = join(dir, 'manifest.json');
  const made = existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: number; scale: number })
    : null;
  if (made?.version !== GENERATOR_VERSION || made.scale !== 1) await generateSynthSets(dir);
  return dir;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = synthDir();
  const t = performance.now();
  await generateSynthSets(dir);
  console.log(`synthetic sets written to ${dir} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
