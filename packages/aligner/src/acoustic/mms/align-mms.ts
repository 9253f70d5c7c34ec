// The `mms` back-end end to end: romanise the transcript's words, run the MMS model over the audio in
// windows, one global CTC Viterbi with the `<star>` wildcard, word and letter times with the boundary
// correction, and a greedy-decoding pass for CER/WER. It runs on the whole file at once (the emission
// matrix is small; the Viterbi is banded and checkpointed), so it does not use the engine's window loop.
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { RESULT_SCHEMA_VERSION } from '@tazamun/contracts/alignment-result';
import type { AlignmentResult, WordTiming } from '@tazamun/contracts/alignment-result';
import { buildCtcGraph } from '../../align/ctc-graph.ts';
import { errorRates, greedyDecode } from '../../align/ctc-greedy.ts';
import { ctcWordSpans } from '../../align/ctc-spans.ts';
import type { CtcSpanOptions } from '../../align/ctc-spans.ts';
import { ctcViterbi } from '../../align/ctc-viterbi.ts';
import { buildSegments } from '../../align/segments.ts';
import { SAMPLE_RATE } from '../../audio/decode.ts';
import { loadAlignableAudio } from '../../audio/load.ts';
import type { SourceAudioInfo } from '../../audio/load.ts';
import { findInstalled, MODELS } from '../../models/registry.ts';
import { romanizeWord } from '../../romanize/romanize.ts';
import { resolveLanguage } from '../../text/languages.ts';
import { EngineError } from '../../errors.ts';
import { normalizeTranscript, splitWords } from '../../text/normalize.ts';
import type { ModelToken, SourceWord } from '../../text/normalize.ts';
import type { Recognition } from '../backend.ts';
import { arraySource, computeEmissions, loadMmsModel } from './emissions.ts';
import type { EmissionOptions, SampleSource } from './emissions.ts';
import { checkVocabFile, FIRST_LETTER, letterId, MMS_VOCAB } from './vocab.ts';

export const MMS_VERSION = 'mms-fa-onnx-1';

export interface MmsOptions {
  /** ISO 639-3 code of the transcript (Japanese kanji are not read as Chinese) */
  lang?: string;
  /** an ONNX file to use instead of the installed model */
  modelPath?: string;
  env?: NodeJS.ProcessEnv;
  /** `<star>` wildcard and word skipping (default true) */
  garbage?: boolean;
  recognition?: boolean;
  emission?: Partial<EmissionOptions>;
  spans?: Partial<CtcSpanOptions>;
  /** Viterbi band half-width as seconds of speech (default 120) */
  bandSeconds?: number;
}

export interface MmsWordsResult {
  words: WordTiming[];
  processedText: string;
  route: string;
  model: string;
  version: string;
  recognition: Recognition | null;
  warnings: string[];
}

const round = (x: number): number => Math.round(x * 10000) / 10000;
const clamp01 = (x: number): number => Math.max(0, Math.min(1, x));

function resolveModel(opts: MmsOptions): { path: string; name: string; normalize: boolean } {
  if (opts.modelPath) return { path: opts.modelPath, name: opts.modelPath, normalize: true };
  const inst = findInstalled('mms', opts.env);
  if (!inst) {
    throw new EngineError(
      'model_not_installed',
      'the MMS model is not installed: run `tazamun models pull mms` once (or use --engine hmm)',
    );
  }
  checkVocabFile(join(inst.dir, 'vocab.json'));
  // The export's feature-extractor settings; MMS normalises each input (do_normalize: true).
  const pre = join(inst.dir, 'preprocessor_config.json');
  let normalize = true;
  if (existsSync(pre)) {
    const cfg = JSON.parse(readFileSync(pre, 'utf8')) as { do_normalize?: boolean; sampling_rate?: number };
    if (cfg.sampling_rate !== undefined && cfg.sampling_rate !== SAMPLE_RATE) {
      throw new Error(
        `${pre}: the model expects ${cfg.sampling_rate} Hz audio, the engine decodes to ${SAMPLE_RATE} Hz`,
      );
    }
    normalize = cfg.do_normalize ?? true;
  }
  return { path: inst.modelPath, name: `${MODELS.mms.repo}:${inst.variant}`, normalize };
}

/** Aligns already-normalised words (the text module's output) with the MMS model. */
export async function alignWordsWithMms(
  samples: Float32Array | SampleSource,
  words: SourceWord[],
  tokens: ModelToken[],
  options: MmsOptions = {},
): Promise<MmsWordsResult> {
  const warnings: string[] = [];
  const { path, name, normalize } = resolveModel(options);
  const lang = options.lang;
  const model = await loadMmsModel(path, MMS_VOCAB.length);

  // Every token of a source word is romanised and joined: the word is one unit of the CTC graph.
  const romanised = new Map<number, string[]>();
  const unknown = new Set<string>();
  for (const t of tokens) {
    const r = romanizeWord(t.text, lang);
    r.unknown.forEach((c) => unknown.add(c));
    if (r.text) romanised.set(t.wordIndex, [...(romanised.get(t.wordIndex) ?? []), r.text]);
  }
  if (unknown.size) {
    warnings.push(`characters with no romanisation were left out: ${[...unknown].slice(0, 20).join(' ')}`);
  }
  const alignable = words.filter((w) => romanised.has(w.index));
  const silentWords = words.filter(
    (w) => !romanised.has(w.index) && tokens.some((t) => t.wordIndex === w.index),
  );
  if (silentWords.length) {
    warnings.push(
      `${silentWords.length} word(s) romanise to no letters and are not aligned: ${silentWords
        .slice(0, 5)
        .map((w) => w.text)
        .join(' ')}`,
    );
  }
  if (alignable.length === 0)
    throw new EngineError(
      'nothing_to_align',
      'nothing to align: no word of the transcript romanises to letters',
    );
  const ids = alignable.map((w) => [...romanised.get(w.index)!.join('')].map((c) => letterId(c)!));

  const source = samples instanceof Float32Array ? arraySource(samples) : samples;
  const em = await computeEmissions(model, source, { normalize, ...options.emission });
  const graph = buildCtcGraph(ids, { star: options.garbage ?? true });
  const path0 = ctcViterbi(em, graph, { bandSeconds: options.bandSeconds ?? 120, firstLetter: FIRST_LETTER });
  if (path0.touchedBand) {
    warnings.push(
      'the alignment path reached the edge of its search band: the transcript and audio may not match',
    );
  }
  const spans = ctcWordSpans(em, graph, path0.states, options.spans);

  const byWord = new Map<number, (typeof spans)[number]>();
  alignable.forEach((w, k) => byWord.set(w.index, spans[k]!));
  const out: WordTiming[] = words.map((w) => {
    const base = {
      index: w.index,
      word: w.text,
      normalized: (romanised.get(w.index) ?? []).join(' '),
      char_start: w.charStart,
      char_end: w.charEnd,
    };
    const sp = byWord.get(w.index);
    if (!sp || !sp.found) {
      return {
        ...base,
        start: null,
        end: null,
        duration: null,
        confidence: 0,
        status: 'not_found' as const,
        phones: [],
      };
    }
    return {
      ...base,
      start: round(sp.start),
      end: round(sp.end),
      duration: round(sp.end - sp.start),
      confidence: clamp01(sp.confidence),
      status: 'aligned' as const,
      phones: sp.letters.map((l) => ({
        phone: MMS_VOCAB[l.label]!,
        start: round(l.start),
        end: round(l.end),
        confidence: clamp01(l.confidence),
      })),
    };
  });

  let recognition: Recognition | null = null;
  if (options.recognition ?? true) {
    const hyp = greedyDecode(em, { firstLetter: FIRST_LETTER }).map((w) =>
      w.map((id) => MMS_VOCAB[id]).join(''),
    );
    const ref = alignable.map((w) => romanised.get(w.index)!.join(''));
    const r = errorRates(hyp, ref);
    recognition = {
      wer: r.wer,
      cer: r.cer,
      method:
        'greedy CTC decoding of the MMS emissions against the romanised transcript; CER over letters ' +
        '(a-z and apostrophe, word boundaries removed); WER approximate: the model has no word separator, ' +
        'so hypothesis words are cut at pauses of 80 ms or more',
    };
  }
  return {
    words: out,
    processedText: alignable.map((w) => romanised.get(w.index)!.join('')).join(' '),
    route: 'romanised',
    model: name,
    version: MMS_VERSION,
    recognition,
    warnings,
  };
}

export interface MmsFileOptions extends MmsOptions {
  lang: string;
  normalize?: boolean;
  numbersToWords?: boolean;
  removeFillers?: boolean;
  precision?: 'standard' | 'high' | 'ultra';
  /** MMS aligns romanised orthography; an IPA transcript is refused with a clear message */
  inputKind?: 'orthography' | 'ipa';
  /** the source's format when `audio` is samples the caller already decoded */
  audioInfo?: SourceAudioInfo;
  /** notes to put first in the result's warnings (e.g. why `auto` chose this engine) */
  notes?: string[];
}

/** Language code for the result and the text normaliser; MMS accepts ISO 639-3 codes the table lacks. */
function languageOf(lang: string): { iso3: string; known: boolean } {
  try {
    return { iso3: resolveLanguage(lang).iso3, known: true };
  } catch (err) {
    if (/^[a-z]{3}$/i.test(lang.trim())) return { iso3: lang.trim().toLowerCase(), known: false };
    throw err;
  }
}

/** The whole path for one file: decode, measure, normalise, align with MMS, build the platform result. */
export async function alignFileWithMms(
  audio: string | Float32Array,
  text: string,
  options: MmsFileOptions,
): Promise<AlignmentResult> {
  const t0 = performance.now();
  if (options.inputKind === 'ipa') {
    throw new EngineError(
      'unsupported_option',
      'the mms engine aligns written text (romanised letters), not IPA; an IPA transcript is aligned by the hmm engine (--engine hmm or auto), which accepts every ISO 639-3 code',
    );
  }
  // Fail before decoding (possibly an hour of audio) when the model is missing or not the expected one.
  resolveModel(options);
  const warnings: string[] = [...(options.notes ?? [])];
  const { samples, info, stats } = await loadAlignableAudio(audio, options.audioInfo);
  const lang = languageOf(options.lang);
  let words: SourceWord[];
  let tokens: ModelToken[];
  if (lang.known) {
    const norm = normalizeTranscript(text, options.lang, {
      normalize: options.normalize ?? true,
      numbersToWords: options.numbersToWords ?? true,
      removeFillers: options.removeFillers ?? false,
    });
    words = norm.words;
    tokens = norm.tokens;
  } else {
    // A language only MMS covers: words as written, no number expansion (digits are reported as not romanised).
    words = splitWords(text);
    tokens = words.map((w) => ({ text: w.text, wordIndex: w.index }));
    warnings.push(`language "${lang.iso3}" has no text rules here: words are romanised as written`);
  }
  const r = await alignWordsWithMms(samples, words, tokens, { ...options, lang: lang.iso3 });
  warnings.push(...r.warnings);
  const aligned = r.words.filter((w) => w.status === 'aligned');
  const processing = (performance.now() - t0) / 1000;
  return {
    schema_version: RESULT_SCHEMA_VERSION,
    language: lang.iso3,
    engine: {
      backend: 'mms',
      model: r.model,
      version: r.version,
      precision: options.precision ?? 'standard',
      route: r.route,
    },
    audio: {
      duration: stats.duration,
      sample_rate: info.sampleRate,
      channels: info.channels,
      format: info.format,
      peak_dbfs: stats.peakDbfs,
      clipping_ratio: stats.clippingRatio,
      silence_ratio: stats.silenceRatio,
    },
    text: { original: text, processed: r.processedText, input_kind: 'orthography' },
    words: r.words,
    segments: buildSegments(text, r.words),
    metrics: {
      coverage: r.words.length ? aligned.length / r.words.length : 0,
      mean_confidence: aligned.length ? aligned.reduce((a, w) => a + w.confidence, 0) / aligned.length : 0,
      wer: r.recognition?.wer ?? null,
      cer: r.recognition?.cer ?? null,
      wer_method: r.recognition?.method ?? 'recognition pass not requested',
      words_total: r.words.length,
      words_aligned: aligned.length,
      audio_duration: stats.duration,
      processing_time: processing,
      real_time_factor: stats.duration ? processing / stats.duration : 0,
    },
    warnings,
  };
}
