// Adapting a model to a corpus (`tazamun adapt`, the platform's project adaptation): align every
// recording with the current model, gather the frames of each path (MAP statistics), re-estimate, and
// again, until the corpus's likelihood stops improving. Recordings whose words a person corrected by
// hand are ground truth: each word is aligned alone inside the stretch the person gave it, and its frames
// count twice.
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
import type { ExtraPhone } from '../phone-map.ts';
import type { Features } from '../frontend/features.ts';
import type { GaussianTopN } from '../scoring/gaussians.ts';
import { MapStats, mapUpdate, mixtureProbabilities } from './map.ts';
import type { FrameStats, MapOptions } from './map.ts';
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

export interface AdaptItem {
  /** the recording (any file the engine reads) */
  audio: string;
  text: string;
  inputKind?: 'orthography' | 'ipa';
  /**
   * Words a person placed by hand (a corrected revision): each is aligned alone within its own times and
   * weighs GROUND_TRUTH_WEIGHT. When given, the recording is not aligned freely.
   */
  fixedWords?: { text: string; start: number; end: number }[];
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

/** Frames handed on with a weight (the hand-corrected words). */
function weighted(stats: FrameStats, weight: number): FrameStats {
  return {
    fillers: stats.fillers,
    add: (feats: Features, topn: GaussianTopN, t: number, senone: number, gamma = 1) =>
      stats.add(feats, topn, t, senone, gamma * weight),
  };
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
  try {
    const baseModel = loadAcousticModel({ dir: base.hmm, featParams: base.featParams });
    const baseParams = modelParams(baseModel, mixtureProbabilities(baseModel), readTransitionFile(base.hmm));
    const wantPhones =
      opts.newPhones !== 'none' && fam === 'en' && (isArabicLanguage(opts.lang) || inputKind === 'ipa');
    let extra: ExtraPhone[] = wantPhones ? [...ARABIC_PHONES] : [];
    let params = addPhones(baseParams, extra);
    const maxIterations = opts.maxIterations ?? MAX_ITERATIONS;
    const history: { logLikelihood: number; frames: number }[] = [];
    let skipped: { audio: string; reason: string }[] = [];
    let seconds = 0;
    let groundTruthWords = 0;
    let moved = 0;
    let gaussians = 0;
    let it = 0;
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
        stats,
        lexicon: opts.lexicon,
        signal: opts.signal,
        onItem: (k) =>
          progress((it + k / items.length) / (maxIterations + 1), `pass ${pass + 1}: ${k}/${items.length}`),
      });
      skipped = run.skipped;
      seconds = run.seconds;
      groundTruthWords = run.groundTruthWords;
      if (stats.frames < MIN_CORPUS_FRAMES)
        throw new EngineError(
          'corpus_too_small',
          `the corpus gave ${(stats.frames / 100).toFixed(0)} s of aligned speech; adaptation needs at least ${MIN_CORPUS_FRAMES / 100} s`,
          { params: { seconds: Math.floor(stats.frames / 100), needed: MIN_CORPUS_FRAMES / 100 } },
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
      if (it >= maxIterations || (previous && ll - previous.logLikelihood < MIN_GAIN)) break;
      const step = mapUpdate(decoder.model, stats, params.weights, opts.map);
      moved = Math.max(moved, step.moved);
      gaussians = step.gaussians;
      params = withParams(params, step.model, step.weights);
      unloadDecoder(manifest.id);
      it++;
    }
    progress(1, 'writing the model');
    const manifest = writeModelDir(out, params, base, {
      language,
      extraPhones: extra,
      corpus: {
        recordings: items.length - skipped.length,
        seconds: round(seconds),
        hours: round(seconds / 3600),
        frames: history[0]?.frames ?? 0,
        groundTruthWords,
      },
      iterations: history,
      moved,
      gaussians,
      tool: 'tazamun adapt (MAP: means, variances, mixture weights)',
    });
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

/** Aligns each recording (or its hand-placed words) with the model in `dir`, adding its frames to `stats`. */
async function collectCorpus(
  items: readonly AdaptItem[],
  o: {
    lang: string;
    dir: string;
    stats: FrameStats;
    lexicon?: readonly LexiconEntry[];
    signal?: AbortSignal;
    onItem: (done: number) => void;
  },
): Promise<{ skipped: { audio: string; reason: string }[]; seconds: number; groundTruthWords: number }> {
  const skipped: { audio: string; reason: string }[] = [];
  let seconds = 0;
  let groundTruthWords = 0;
  const common = {
    lang: o.lang,
    model: o.dir,
    lexicon: o.lexicon,
    recognition: false,
    calibration: 'none' as const,
    precision: 'standard' as const,
  };
  for (let k = 0; k < items.length; k++) {
    o.signal?.throwIfAborted();
    const item = items[k]!;
    o.onItem(k);
    try {
      if (item.fixedWords?.length) {
        const audio = await loadAlignableAudio(item.audio, undefined, true, 'float32');
        const pcm = audio.samples as Float32Array;
        seconds += pcm.length / SAMPLE_RATE;
        const truth = weighted(o.stats, GROUND_TRUTH_WEIGHT);
        for (const w of item.fixedWords) {
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
  return { skipped, seconds, groundTruthWords };
}
