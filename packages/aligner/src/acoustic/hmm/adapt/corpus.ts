// Adapting a model to a corpus (`tazamun adapt`, the platform's project adaptation): align every
// recording with the current model, gather the frames of each path (MAP statistics), re-estimate, and
// again, until the corpus's likelihood stops improving. Each re-estimation first moves every Gaussian by a
// transform shared by its regression class (MLLR, mllr.ts), then each visited one towards its frames
// (MAP, map.ts). Recordings whose words a person corrected by hand are ground truth: a word whose phones
// the person placed gives its frames phone by phone, in the person's segments; a word placed as a whole
// is aligned alone inside the stretch the person gave it; either way its frames count twice. From those
// recordings the model also learns where people put word edges against where it puts them (edges.ts).
//
// For Arabic (and IPA corpora) the model first gains the phones its base lacks, each cloned from the
// phone that stood in for it; a phone the corpus gives too few frames is left out again, so the model
// never claims a phone it has not learnt.
import { mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { EngineError } from '../../../errors.ts';
import { align } from '../../../engine.ts';
import type { LexiconEntry } from '../../backend.ts';
import { loadAlignableAudio } from '../../../audio/load.ts';
import { SAMPLE_RATE } from '../../../audio/decode.ts';
import { acceptLanguage, isArabicLanguage } from '../../../text/languages.ts';
import { loadHmmDecoder, unloadDecoder } from '../decoder.ts';
import { loadAcousticModel } from '../model/acoustic-model.ts';
import { resolveHmmModel } from '../models.ts';
import type { ExtraPhone, PhoneSet } from '../phone-map.ts';
import type { Features } from '../frontend/features.ts';
import type { GaussianTopN } from '../scoring/gaussians.ts';
import { MapStats, mapUpdate, mixtureProbabilities } from './map.ts';
import type { FrameStats, MapOptions } from './map.ts';
import { mllrUpdate, regressionClasses } from './mllr.ts';
import type { MllrClasses } from './mllr.ts';
import { learnEdgeCorrection, phoneClasses } from './edges.ts';
import type { EdgeCorrection, EdgeWord } from './edges.ts';
import { ipaToModelPhones, phoneSet } from '../phone-map.ts';
import type { HmmDecoder } from '../decoder.ts';
import type { Precision } from '../../backend.ts';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { adaptedModelSpec, addPhones, modelParams, readTransitionFile, writeModelDir } from './model-dir.ts';
import type { ModelManifest, ModelParams } from './model-dir.ts';

/**
 * Phones an Arabic model gains, each cloned from the English phone that stood in for it (phone-map.ts):
 * the pharyngeals, uvular and velar fricatives, the glottal stop, the emphatics, the tap/trill r and the
 * open vowels the English model only has as ɑ.
 */
export const ARABIC_PHONES: readonly ExtraPhone[] = [
  { phone: 'ar_a', ipa: 'a', from: 'AA' },
  { phone: 'ar_aa', ipa: 'aː', from: 'AA' },
  { phone: 'ar_hamza', ipa: 'ʔ', from: 'T' },
  { phone: 'ar_ain', ipa: 'ʕ', from: 'HH' },
  { phone: 'ar_hah', ipa: 'ħ', from: 'HH' },
  { phone: 'ar_khah', ipa: 'x', from: 'HH' },
  { phone: 'ar_ghain', ipa: 'ɣ', from: 'G' },
  { phone: 'ar_qaf', ipa: 'q', from: 'K' },
  { phone: 'ar_r', ipa: 'r', from: 'R' },
  { phone: 'ar_tah', ipa: 'tˤ', from: 'T' },
  { phone: 'ar_dad', ipa: 'dˤ', from: 'D' },
  { phone: 'ar_sad', ipa: 'sˤ', from: 'S' },
  { phone: 'ar_zah', ipa: 'ðˤ', from: 'DH' },
];

/** A phone of its own needs at least this many frames of the corpus (0.3 s), else it stays a stand-in. */
export const MIN_PHONE_FRAMES = 30;
/** Audio the corpus must hold for adaptation to change anything (60 s of aligned frames). */
export const MIN_CORPUS_FRAMES = 6000;
/**
 * Re-estimations at most, and the gain per frame (nats) below which the loop stops. Two: measured on the
 * synthetic Arabic corpus (docs/benchmarks.md), the held-apart voices gained most after two.
 */
export const MAX_ITERATIONS = 2;
export const MIN_GAIN = 0.01;
/** A hand-corrected word's frames count this many times. */
export const GROUND_TRUTH_WEIGHT = 2;
/**
 * MLLR's regression classes by default: none. Before MAP (τ 10) on timit-dev's held-apart halves a global
 * transform gave 0.0/−0.2 ms, speech and silence 0.0/−0.2, broad classes +0.1/−0.2, MLLR without MAP
 * 0.0/−0.7 (MAP alone +0.1/0.0); on the Arabic voices it helped the Tunisian speakers (33.8 → 27.0 ms)
 * about as much as MAP's stronger prior did without it (26.8 ms). docs/benchmarks.md, "Models that learn".
 */
export const MLLR_CLASSES: MllrClasses = 'none';
/**
 * The MAP priors' factor for the base's own phones in a model that gained phones: 1. Holding them at the
 * base (Infinity) broke the synthetic Arabic voices (ar-synthetic 142.8 ms: the cloned phones, alone to
 * learn the corpus, took its noise); 4 changed little (19.8 / 21.1 / 35.8 ms against 20.6 / 20.7 / 38.8
 * ms, measured before the edge refinement read the cloned phones as their parents).
 */
export const KEEP_BASE = 1;
/** A stretch between hand-placed words at least this long (s) is taken as a pause (fixedAll). */
const MIN_PAUSE = 0.03;
/** Hand-placed words are gathered into chunks of at most this long (s) to be scored. */
const CHUNK = 30;

/** A phone a person placed (a corrected revision's phone): the model's label(s) for it, its IPA. */
export interface FixedPhone {
  /** the model phone(s) placed for it, space-separated (a revision's `model_phone`) */
  phone: string;
  /** its IPA (a revision's `phone`): an adapted model's own phone replaces the stand-in when it has one */
  ipa?: string;
  start: number;
  end: number;
}

export interface FixedWord {
  text: string;
  start: number;
  end: number;
  /** its phones as the person left them, in order, inside the word's times */
  phones?: FixedPhone[];
}

export interface AdaptItem {
  /** the recording (any file the engine reads) */
  audio: string;
  text: string;
  inputKind?: 'orthography' | 'ipa';
  /**
   * Words a person placed by hand (a corrected revision), weighing GROUND_TRUTH_WEIGHT: one with its
   * phones gives each phone's frames in the person's segments; one without is aligned alone within its
   * own times. When given, the recording is not aligned freely.
   */
  fixedWords?: FixedWord[];
  /**
   * every word of the transcript is in fixedWords: the stretches between them (and before the first and
   * after the last) are pauses, and teach the silence model
   */
  fixedAll?: boolean;
}

export interface AdaptOptions {
  lang: string;
  /** the adapted model's folder (replaced when it exists) */
  out: string;
  /** the user's own pronunciations, as for align() */
  lexicon?: readonly LexiconEntry[];
  maxIterations?: number;
  /** 'none': keep the base's phone set even for Arabic */
  newPhones?: 'auto' | 'none';
  map?: MapOptions;
  /** MLLR's regression classes before each MAP step ('none': MAP alone; default MLLR_CLASSES) */
  mllr?: MllrClasses;
  /** MAP's step (default true; false: MLLR alone, with the mixture weights) */
  mapMeans?: boolean;
  /**
   * With phones added (Arabic): a factor on the MAP priors of the base's own phones, against 1 for the
   * phones cloned for the language (default KEEP_BASE; Infinity: only the cloned phones move)
   */
  keepBase?: number;
  /** learn where people put word edges from the hand-placed words (default true when there are some) */
  edges?: boolean;
  /** the precision the boundary correction is learnt at: the one the model will align with (default standard) */
  precision?: Precision;
  /** called with the share of the work done and what is happening */
  onProgress?: (done: number, step: string) => void;
  signal?: AbortSignal;
  /** where the intermediate models go (default: beside `out`) */
  workDir?: string;
}

export interface AdaptReport {
  manifest: ModelManifest;
  dir: string;
  /** recordings that could not be used, with why */
  skipped: { audio: string; reason: string }[];
}

/** Frames handed on with a weight (the hand-corrected words), counted as they pass. */
function weighted(stats: FrameStats, weight: number): FrameStats & { frames: number } {
  const out = {
    frames: 0,
    fillers: stats.fillers,
    add: (feats: Features, topn: GaussianTopN, t: number, senone: number, gamma = 1) => {
      out.frames += gamma;
      stats.add(feats, topn, t, senone, gamma * weight);
    },
  };
  return out;
}

function family(lang: string, inputKind: 'orthography' | 'ipa'): 'en' | 'fr' {
  const accepted = acceptLanguage(lang, { inputKind, engine: 'hmm' });
  return accepted.iso3 === 'fra' && inputKind === 'orthography' ? 'fr' : 'en';
}

export async function adaptModel(items: readonly AdaptItem[], opts: AdaptOptions): Promise<AdaptReport> {
  if (items.length === 0)
    throw new EngineError('corpus_too_small', 'the corpus holds no recording with a transcript', {
      params: { seconds: 0, needed: MIN_CORPUS_FRAMES / 100 },
    });
  const inputKind = items[0]!.inputKind ?? 'orthography';
  const fam = family(opts.lang, inputKind);
  const base = resolveHmmModel(fam, 'full');
  const language = acceptLanguage(opts.lang, { inputKind, engine: 'hmm' }).iso3;
  const out = resolve(opts.out);
  const work = mkdtempSync(join(opts.workDir ?? dirname(out), '.tazamun-adapt-'));
  const loaded: string[] = [];
  const progress = (done: number, step: string) => opts.onProgress?.(Math.min(1, done), step);
  const corrected = items.filter((i) => i.fixedWords?.length);
  const learnEdges = opts.edges !== false && corrected.length > 0;
  const mllr = opts.mllr ?? MLLR_CLASSES;
  try {
    const baseModel = loadAcousticModel({ dir: base.hmm, featParams: base.featParams });
    const baseParams = modelParams(baseModel, mixtureProbabilities(baseModel), readTransitionFile(base.hmm));
    const wantPhones =
      opts.newPhones !== 'none' && fam === 'en' && (isArabicLanguage(opts.lang) || inputKind === 'ipa');
    let extra: ExtraPhone[] = wantPhones ? [...ARABIC_PHONES] : [];
    let params = addPhones(baseParams, extra);
    const maxIterations = opts.maxIterations ?? MAX_ITERATIONS;
    // the work: a pass over the corpus per re-estimation and one more, then the corrected recordings again
    const steps = maxIterations + 1 + (learnEdges ? corrected.length / items.length : 0);
    const history: { logLikelihood: number; frames: number }[] = [];
    let skipped: { audio: string; reason: string }[] = [];
    let seconds = 0;
    let groundTruthWords = 0;
    let groundTruthPhones = 0;
    let frames = 0;
    let moved = 0;
    let gaussians = 0;
    let regression: { name: string; frames: number; own: boolean }[] = [];
    let it = 0;
    let finalDir = '';
    let finalId = '';
    // passes: each aligns the corpus with the current model; a pass after a re-estimation that gained
    // too little ends the loop (its model is kept)
    for (let pass = 0; ; pass++) {
      opts.signal?.throwIfAborted();
      const dir = join(work, `pass-${pass}`);
      const manifest = writeModelDir(dir, params, base, {
        language,
        extraPhones: extra,
        corpus: { recordings: 0, seconds: 0, hours: 0, frames: 0, groundTruthWords: 0 },
        iterations: [],
        moved: 0,
        gaussians: 0,
        tool: 'tazamun adapt (intermediate)',
      });
      loaded.push(manifest.id);
      const decoder = await loadHmmDecoder(adaptedModelSpec(dir));
      const stats = new MapStats(decoder.model);
      const run = await collectCorpus(items, {
        lang: opts.lang,
        dir,
        decoder,
        phones: phoneSet(fam, extra),
        stats,
        lexicon: opts.lexicon,
        signal: opts.signal,
        onItem: (k) => progress((it + k / items.length) / steps, `pass ${pass + 1}: ${k}/${items.length}`),
      });
      skipped = run.skipped;
      seconds = run.seconds;
      groundTruthWords = run.groundTruthWords;
      groundTruthPhones = run.groundTruthPhones;
      // (the corpus's own frames: a hand-placed one weighs more in the statistics, but is one frame)
      frames = stats.frames - (GROUND_TRUTH_WEIGHT - 1) * run.truthFrames;
      if (frames < MIN_CORPUS_FRAMES)
        throw new EngineError(
          'corpus_too_small',
          `the corpus gave ${(frames / 100).toFixed(0)} s of aligned speech; adaptation needs at least ${MIN_CORPUS_FRAMES / 100} s`,
          { params: { seconds: Math.floor(frames / 100), needed: MIN_CORPUS_FRAMES / 100 } },
        );
      // phones of their own the corpus barely shows stay stand-ins: the model is rebuilt without them
      if (pass === 0 && extra.length) {
        const perCodebook = stats.framesPerCodebook();
        const keep = extra.filter(
          (e) => perCodebook[decoder.model.mdef.ciIndex.get(e.phone)!]! >= MIN_PHONE_FRAMES,
        );
        if (keep.length < extra.length) {
          extra = keep;
          params = addPhones(baseParams, extra);
          unloadDecoder(manifest.id);
          continue;
        }
      }
      const ll = stats.logLikelihood / stats.frames;
      const previous = history[history.length - 1];
      history.push({ logLikelihood: round(ll), frames: Math.round(stats.frames) });
      if (it >= maxIterations || (previous && ll - previous.logLikelihood < MIN_GAIN)) {
        finalDir = dir;
        finalId = manifest.id;
        break;
      }
      const m = decoder.model;
      const classes = phoneClasses(phoneSet(fam, extra).native);
      let prior = m;
      if (mllr !== 'none') {
        const step = mllrUpdate(m, stats, regressionClasses(mllr, m.mdef.ciPhones, m.mdef.filler, classes));
        prior = { ...m, means: step.means };
        regression = step.classes;
      }
      // with phones added, the base's own phones may be held nearer the base than the cloned ones
      const keepBase = opts.keepBase ?? KEEP_BASE;
      const tauScale =
        extra.length && keepBase !== 1
          ? Float64Array.from({ length: m.nCodebooks }, (_, cb) => (cb < baseModel.nCodebooks ? keepBase : 1))
          : undefined;
      const step = mapUpdate(prior, stats, params.weights, {
        ...opts.map,
        means: opts.mapMeans !== false && opts.map?.means !== false,
        tauScale,
      });
      moved = Math.max(moved, step.moved);
      gaussians = step.gaussians;
      params = withParams(params, step.model, step.weights);
      unloadDecoder(manifest.id);
      it++;
    }
    // what the corpus's corrections say of the model's word edges, with the model as it is now
    let edges: EdgeCorrection | null = null;
    if (learnEdges) {
      edges = await learnFromCorrections(corrected, {
        lang: opts.lang,
        dir: finalDir,
        lexicon: opts.lexicon,
        precision: opts.precision ?? 'standard',
        classes: phoneClasses(phoneSet(fam, extra).native),
        signal: opts.signal,
        onItem: (k) => progress((it + 1 + k / items.length) / steps, `boundaries: ${k}/${corrected.length}`),
      });
      unloadDecoder(finalId);
    }
    progress(1, 'writing the model');
    const tool = [
      mllr !== 'none' ? `MLLR (${mllr})` : '',
      opts.mapMeans !== false ? 'MAP: means, mixture weights' : 'mixture weights',
      opts.map?.variances ? 'variances' : '',
      edges ? 'word edges from hand corrections' : '',
    ]
      .filter(Boolean)
      .join('; ');
    const manifest = writeModelDir(
      out,
      params,
      base,
      {
        language,
        extraPhones: extra,
        corpus: {
          recordings: items.length - skipped.length,
          seconds: round(seconds),
          hours: round(seconds / 3600),
          frames: Math.round(frames),
          groundTruthWords,
          groundTruthPhones,
        },
        iterations: history,
        moved,
        gaussians,
        ...(regression.length ? { mllr: { classes: mllr, transforms: regression } } : {}),
        tool: `tazamun adapt (${tool})`,
      },
      edges,
    );
    return { manifest, dir: out, skipped };
  } finally {
    for (const id of loaded) unloadDecoder(id);
    rmSync(work, { recursive: true, force: true });
  }
}

function withParams(
  p: ModelParams,
  m: { means: Float32Array; variances: Float32Array },
  weights: Float32Array,
): ModelParams {
  return { ...p, means: m.means, variances: m.variances, weights };
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

/** The model's labels for a hand-placed phone: its own phone for the IPA when it has one, else the given labels. */
function phoneLabels(p: FixedPhone, phones: PhoneSet): string[] {
  const own = p.ipa ? ipaToModelPhones(p.ipa, phones) : [];
  return own.length ? own : p.phone.split(/\s+/).filter(Boolean);
}

/**
 * A hand-placed word's phones as the model's labels with their times, or null when any of them is not a
 * phone of the model (the word is then taken as a whole). A phone given two labels is split in halves.
 */
function placedPhones(
  w: FixedWord,
  phones: PhoneSet,
  known: (label: string) => boolean,
): { phone: string; start: number; end: number }[] | null {
  if (!w.phones?.length) return null;
  const out: { phone: string; start: number; end: number }[] = [];
  for (const p of w.phones) {
    if (!(p.end > p.start)) continue;
    const labels = phoneLabels(p, phones);
    if (labels.length === 0) continue; // a phone the model places nothing for (ʔ on the English model)
    if (!labels.every(known)) return null;
    const step = (p.end - p.start) / labels.length;
    labels.forEach((l, k) =>
      out.push({ phone: l, start: p.start + k * step, end: p.start + (k + 1) * step }),
    );
  }
  return out.length ? out : null;
}

/** Aligns each recording (or takes its hand-placed words) with the model in `dir`, adding its frames to `stats`. */
async function collectCorpus(
  items: readonly AdaptItem[],
  o: {
    lang: string;
    dir: string;
    decoder: HmmDecoder;
    phones: PhoneSet;
    stats: FrameStats;
    lexicon?: readonly LexiconEntry[];
    signal?: AbortSignal;
    onItem: (done: number) => void;
  },
): Promise<{
  skipped: { audio: string; reason: string }[];
  seconds: number;
  groundTruthWords: number;
  groundTruthPhones: number;
  /** frames of hand-placed words and pauses (each weighs GROUND_TRUTH_WEIGHT in the statistics) */
  truthFrames: number;
}> {
  const skipped: { audio: string; reason: string }[] = [];
  let truthFrames = 0;
  let seconds = 0;
  let groundTruthWords = 0;
  let groundTruthPhones = 0;
  const common = {
    lang: o.lang,
    model: o.dir,
    lexicon: o.lexicon,
    recognition: false,
    calibration: 'none' as const,
    precision: 'standard' as const,
  };
  const known = (l: string) => o.decoder.model.mdef.ciIndex.has(l);
  for (let k = 0; k < items.length; k++) {
    o.signal?.throwIfAborted();
    const item = items[k]!;
    o.onItem(k);
    try {
      if (item.fixedWords?.length) {
        const audio = await loadAlignableAudio(item.audio, undefined, true, 'float32');
        const pcm = audio.samples as Float32Array;
        const duration = pcm.length / SAMPLE_RATE;
        seconds += duration;
        const truth = weighted(o.stats, GROUND_TRUTH_WEIGHT);
        const fixed = [...item.fixedWords].sort((a, b) => a.start - b.start);
        // words whose phones a person placed: their frames phone by phone, a chunk of the recording at a time
        const placed: {
          start: number;
          end: number;
          phones: { phone: string; start: number; end: number }[];
        }[] = [];
        const whole: FixedWord[] = [];
        for (const w of fixed) {
          const ph = placedPhones(w, o.phones, known);
          if (ph) placed.push({ start: w.start, end: w.end, phones: ph });
          else whole.push(w);
        }
        const pauses: { start: number; end: number }[] = [];
        if (item.fixedAll) {
          let at = 0;
          for (const w of fixed) {
            if (w.start - at >= MIN_PAUSE) pauses.push({ start: at, end: w.start });
            at = Math.max(at, w.end);
          }
          if (duration - at >= MIN_PAUSE) pauses.push({ start: at, end: duration });
        }
        const segs = [
          ...placed.map((p) => ({ start: p.start, end: p.end, word: p.phones })),
          ...pauses.map((p) => ({ start: p.start, end: p.end, word: null })),
        ].sort((a, b) => a.start - b.start);
        for (let i = 0; i < segs.length;) {
          const from = segs[i]!.start;
          let j = i;
          while (j < segs.length && (j === i || segs[j]!.end - from <= CHUNK)) j++;
          const chunk = segs.slice(i, j);
          const a = Math.max(0, Math.floor(from * SAMPLE_RATE));
          const b = Math.min(pcm.length, Math.ceil(Math.max(...chunk.map((c) => c.end)) * SAMPLE_RATE));
          const off = a / SAMPLE_RATE;
          const shift = (x: { start: number; end: number }) => ({ start: x.start - off, end: x.end - off });
          truthFrames += await o.decoder.collectPlaced(
            pcm.slice(a, b),
            chunk.flatMap((c) => (c.word ? [c.word.map((p) => ({ phone: p.phone, ...shift(p) }))] : [])),
            chunk.flatMap((c) => (c.word ? [] : [shift(c)])),
            o.stats,
            GROUND_TRUTH_WEIGHT,
          );
          i = j;
        }
        groundTruthWords += placed.length;
        groundTruthPhones += placed.reduce((n, p) => n + p.phones.length, 0);
        truth.frames = 0;
        for (const w of whole) {
          const a = Math.max(0, Math.round(w.start * SAMPLE_RATE));
          const b = Math.min(pcm.length, Math.round(w.end * SAMPLE_RATE));
          // a word shorter than three frames per phone cannot hold its path
          if (b - a < 0.05 * SAMPLE_RATE) continue;
          try {
            const r = await align(pcm.slice(a, b), w.text, {
              ...common,
              inputKind: item.inputKind,
              garbage: false,
              adaptation: truth,
              audioInfo: audio.info,
            });
            if (r.words.some((x) => x.start !== null)) groundTruthWords++;
          } catch (err) {
            // a word the engine cannot pronounce or place teaches nothing; the others still do
            if (err instanceof EngineError && !err.input) throw err;
          }
        }
        truthFrames += truth.frames;
      } else {
        const r = await align(item.audio, item.text, {
          ...common,
          inputKind: item.inputKind,
          adaptation: o.stats,
        });
        seconds += r.audio.duration;
      }
    } catch (err) {
      if (err instanceof EngineError && !err.input) throw err;
      skipped.push({ audio: item.audio, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  o.onItem(items.length);
  return { skipped, seconds, groundTruthWords, groundTruthPhones, truthFrames };
}

/** Arabic diacritics, tatweel and Quranic marks (code point ranges), left out when words are compared. */
const DIACRITICS: [number, number][] = [
  [0x0610, 0x061a],
  [0x064b, 0x065f],
  [0x0670, 0x0670],
  [0x0640, 0x0640],
  [0x06d6, 0x06ed],
];

/** A word as score.py compares them: NFC, lower case, without Arabic diacritics and punctuation. */
function normWord(w: string): string {
  return [
    ...w
      .normalize('NFC')
      .toLowerCase()
      .replace(/\u0671/g, '\u0627'),
  ]
    .filter((c) => {
      const cp = c.codePointAt(0)!;
      return !DIACRITICS.some(([a, b]) => cp >= a && cp <= b) && !/[\p{P}\p{S}\p{Z}\p{C}]/u.test(c);
    })
    .join('');
}

/** Pairs of indices (a, b) of a longest common subsequence of two word lists. */
function matchWords(a: readonly string[], b: readonly string[]): [number, number][] {
  if (a.length === b.length && a.every((w, i) => w === b[i])) return a.map((_, i) => [i, i]);
  const n = a.length;
  const m = b.length;
  const t = Array.from({ length: n + 1 }, () => new Int32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      t[i]![j] = a[i] === b[j] ? t[i + 1]![j + 1]! + 1 : Math.max(t[i + 1]![j]!, t[i]![j + 1]!);
  const out: [number, number][] = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (a[i] === b[j]) out.push([i++, j++]);
    else if (t[i + 1]![j]! >= t[i]![j + 1]!) i++;
    else j++;
  }
  return out;
}

/** A result's placed words as the boundary correction sees them (edges.ts), in time order. */
export function edgeWords(r: AlignmentResult): { words: EdgeWord[]; text: string[] } {
  const placed = r.words
    .filter((w) => w.start !== null && w.end !== null)
    .sort((a, b) => a.start! - b.start!);
  const labels = (w: (typeof placed)[number]) =>
    w.phones.flatMap((p) => (p.model_phone ?? '').split(/\s+/).filter(Boolean));
  return {
    words: placed.map((w) => {
      const l = labels(w);
      return { start: w.start!, end: w.end!, first: l[0] ?? '', last: l[l.length - 1] ?? '' };
    }),
    text: placed.map((w) => normWord(w.word)),
  };
}

/**
 * The corrected recordings aligned freely with the adapted model, their words' edges against the
 * person's: the boundary correction the model folder keeps.
 */
async function learnFromCorrections(
  items: readonly AdaptItem[],
  o: {
    lang: string;
    dir: string;
    lexicon?: readonly LexiconEntry[];
    precision: Precision;
    classes: ReturnType<typeof phoneClasses>;
    signal?: AbortSignal;
    onItem: (done: number) => void;
  },
): Promise<EdgeCorrection> {
  const recordings: { words: EdgeWord[]; person: ({ start: number; end: number } | null)[] }[] = [];
  for (let k = 0; k < items.length; k++) {
    o.signal?.throwIfAborted();
    o.onItem(k);
    const item = items[k]!;
    let r: AlignmentResult;
    try {
      r = await align(item.audio, item.text, {
        lang: o.lang,
        model: o.dir,
        lexicon: o.lexicon,
        inputKind: item.inputKind,
        recognition: false,
        calibration: 'none',
        precision: o.precision,
      });
    } catch (err) {
      if (err instanceof EngineError && !err.input) throw err;
      continue;
    }
    const { words, text } = edgeWords(r);
    const fixed = [...item.fixedWords!].sort((a, b) => a.start - b.start);
    const person: ({ start: number; end: number } | null)[] = words.map(() => null);
    for (const [i, j] of matchWords(
      text,
      fixed.map((w) => normWord(w.text)),
    ))
      person[i] = { start: fixed[j]!.start, end: fixed[j]!.end };
    recordings.push({ words, person });
  }
  o.onItem(items.length);
  return learnEdgeCorrection(recordings, o.classes);
}
