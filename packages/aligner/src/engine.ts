// The engine's one entry: audio + transcript -> the platform result (contracts, schema version 1).
// Decoding, text processing, long-audio windowing and scores live here; back-ends only place units.
import { performance } from 'node:perf_hooks';
import { RESULT_SCHEMA_VERSION } from '@tazamun/contracts/alignment-result';
import type { AlignmentResult, Segment, WordTiming } from '@tazamun/contracts/alignment-result';
import { lexiconMap } from './acoustic/backend.ts';
import type {
  AcousticBackend,
  LexiconEntry,
  Precision,
  Recognition,
  Unit,
  UnitSpan,
} from './acoustic/backend.ts';
import { HmmBackend, loadDecoder } from './acoustic/hmm/backend.ts';
import type { ModelFamily } from './acoustic/hmm/models.ts';
import { AudioError, SAMPLE_RATE } from './audio/decode.ts';
import { EngineError, toEngineError } from './errors.ts';
import { loadAlignableAudio } from './audio/load.ts';
import { alignLong } from './align/long-audio.ts';
import { normalizeTranscript } from './text/normalize.ts';
import { acceptLanguage } from './text/languages.ts';
import { chooseEngine } from './models/registry.ts';
import { arabicPronunciationLattice, espeakIpa } from './text/g2p.ts';
import { buildSegments } from './align/segments.ts';
import { energyTrack, refineEdges } from './align/refine.ts';
import { wordConfidence } from './metrics/confidence.ts';

export type EngineName = 'auto' | 'hmm' | 'mms';

export interface AlignOptions {
  lang: string;
  normalize?: boolean;
  numbersToWords?: boolean;
  removeFillers?: boolean;
  precision?: Precision;
  inputKind?: 'orthography' | 'ipa';
  engine?: EngineName;
  /** run the independent recognition pass for WER/CER (default true) */
  recognition?: boolean;
  /** let words be absent from the audio and extra speech be present (default true) */
  garbage?: boolean;
  /** the user's own pronunciations (IPA), used before the model's dictionary and eSpeak (hmm engine) */
  lexicon?: readonly LexiconEntry[];
  /** called now and then with the share of the work done, in [0, 1] (hmm engine) */
  onProgress?: (done: number) => void;
}

function familyFor(lang3: string): ModelFamily {
  return lang3 === 'fra' ? 'fr' : 'en';
}

async function selectBackend(lang3: string): Promise<AcousticBackend> {
  const decoder = await loadDecoder(familyFor(lang3), 'full');
  return new HmmBackend(decoder, { espeakIpa, arabicLattice: arabicPronunciationLattice });
}

/**
 * Aligns audio with its transcript. Every failure is an AudioError (the audio cannot be used) or an
 * EngineError (errors.ts): `input` true for what the user's input caused (no retry), false for an engine
 * fault (retry once on a fresh decoder or thread). Nothing else escapes, so no caller prints
 * "[object Object]" for a value the WASM module threw.
 */
export async function align(
  audio: string | Float32Array,
  text: string,
  options: AlignOptions,
): Promise<AlignmentResult> {
  try {
    return await alignUnchecked(audio, text, options);
  } catch (err) {
    if (err instanceof AudioError || err instanceof EngineError) throw err;
    throw toEngineError(err);
  }
}

async function alignUnchecked(
  audio: string | Float32Array,
  text: string,
  options: AlignOptions,
): Promise<AlignmentResult> {
  const t0 = performance.now();
  const precision = options.precision ?? 'standard';
  const inputKind = options.inputKind ?? 'orthography';
  const engine = options.engine ?? 'auto';
  // Written text on hmm needs a language of the table; IPA and MMS accept every ISO 639-3 code.
  const accepted = acceptLanguage(options.lang, { inputKind, engine });
  if (inputKind === 'orthography') {
    if (!accepted.info) {
      // Only MMS reads this language (acceptLanguage refused it for hmm): without the model, the user
      // is told to pull it.
      const notes =
        engine === 'auto' ? [`language "${accepted.iso3}" has no hmm route: aligned with mms`] : [];
      return alignWithMms(audio, text, options, notes);
    }
    const choice = chooseEngine(engine, accepted.iso3);
    if (choice.engine === 'mms')
      return alignWithMms(audio, text, options, engine === 'auto' ? [choice.reason] : []);
  }
  const lang3 = accepted.iso3;
  const warnings: string[] = [];

  const { samples, info: audioInfo, stats } = await loadAlignableAudio(audio);
  if (stats.clippingRatio > 0.001)
    warnings.push(`the audio clips (${(stats.clippingRatio * 100).toFixed(2)} % of samples)`);

  const backend = await selectBackend(lang3);
  const lexicon = lexiconMap(options.lexicon);
  const norm = normalizeTranscript(text, options.lang, {
    normalize: options.normalize ?? true,
    numbersToWords: options.numbersToWords ?? true,
    removeFillers: options.removeFillers ?? false,
    inputKind,
    hasWord:
      backend instanceof HmmBackend
        ? (w) => lexicon.has(w.normalize('NFC').toLowerCase()) || backend.hasWord(w, lang3)
        : undefined,
  });
  const {
    units,
    route,
    warnings: pw,
  } = await backend.pronounce(norm.tokens, options.lang, inputKind, lexicon);
  warnings.push(...pw);

  const recognition = options.recognition !== false;
  // The recognition pass costs about a sixth of the alignment.
  const share = recognition ? 0.85 : 1;
  const rawSpans = alignLong(backend, samples, units, stats.frameDb, {
    precision,
    garbage: options.garbage ?? true,
    onProgress: options.onProgress ? (d) => options.onProgress!(d * share) : undefined,
  });
  const spans = refineEdges(rawSpans, energyTrack(samples), stats.duration);

  const recog = recognition ? recogniseWindowed(backend, samples, units, spans) : null;
  options.onProgress?.(1);
  const byWord = new Map<number, UnitSpan[]>();
  for (const s of spans) {
    const w = units[s.unit]!.wordIndex;
    byWord.set(w, [...(byWord.get(w) ?? []), s]);
  }
  const unitsByWord = new Map<number, Unit[]>();
  for (const u of units) unitsByWord.set(u.wordIndex, [...(unitsByWord.get(u.wordIndex) ?? []), u]);

  const words: WordTiming[] = norm.words.map((w) => {
    const ss = byWord.get(w.index) ?? [];
    const wordUnits = unitsByWord.get(w.index) ?? [];
    const normalized = wordUnits.map((u) => u.text).join(' ');
    const base = {
      index: w.index,
      word: w.text,
      normalized,
      // a word split into several units (a number read out) takes its first unit's source
      pronunciation_source: wordUnits.find((u) => u.source)?.source ?? null,
      char_start: w.charStart,
      char_end: w.charEnd,
    };
    if (ss.length === 0) {
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
    const start = ss[0]!.start;
    const end = ss[ss.length - 1]!.end;
    return {
      ...base,
      start,
      end,
      duration: Math.round((end - start) * 10000) / 10000,
      confidence: wordConfidence(ss),
      status: 'aligned' as const,
      phones: ss.flatMap((s) =>
        s.phones.map((p) => ({
          phone: p.phone,
          start: p.start,
          end: p.end,
          confidence: clamp01(p.confidence),
        })),
      ),
    };
  });

  const segments: Segment[] = buildSegments(text, words);
  const aligned = words.filter((w) => w.status === 'aligned');
  const processing = (performance.now() - t0) / 1000;
  return {
    schema_version: RESULT_SCHEMA_VERSION,
    language: lang3,
    engine: { backend: backend.name, model: backend.model, version: backend.version, precision, route },
    audio: {
      duration: stats.duration,
      sample_rate: audioInfo.sampleRate,
      channels: audioInfo.channels,
      format: audioInfo.format,
      peak_dbfs: stats.peakDbfs,
      clipping_ratio: stats.clippingRatio,
      silence_ratio: stats.silenceRatio,
    },
    text: { original: text, processed: norm.processedText, input_kind: inputKind },
    words,
    segments,
    metrics: {
      coverage: words.length ? aligned.length / words.length : 0,
      mean_confidence: aligned.length ? aligned.reduce((a, w) => a + w.confidence, 0) / aligned.length : 0,
      wer: recog?.wer ?? null,
      cer: recog?.cer ?? null,
      wer_method: recog?.method ?? 'recognition pass not requested',
      words_total: words.length,
      words_aligned: aligned.length,
      audio_duration: stats.duration,
      processing_time: processing,
      real_time_factor: stats.duration ? processing / stats.duration : 0,
    },
    warnings,
  };
}

async function alignWithMms(
  audio: string | Float32Array,
  text: string,
  options: AlignOptions,
  notes: string[],
): Promise<AlignmentResult> {
  const { alignFileWithMms } = await import('./acoustic/mms/align-mms.ts');
  return alignFileWithMms(audio, text, { ...options, lang: options.lang, notes });
}

/**
 * The recognition pass over windows of at most 30 s (cut at aligned word edges), each scored against the
 * words the alignment put in it; counts are pooled. Keeps memory and the edit-distance cost linear.
 */
function recogniseWindowed(
  backend: AcousticBackend,
  samples: Float32Array,
  units: Unit[],
  spans: UnitSpan[],
): Recognition {
  const total = samples.length / SAMPLE_RATE;
  if (total <= 45) return backend.recognise(samples, units);
  const startOf = new Map<number, number>();
  for (const s of spans) startOf.set(s.unit, s.start);
  const cuts: number[] = [0];
  for (const s of spans) if (s.end - cuts[cuts.length - 1]! >= 30) cuts.push(s.end);
  cuts.push(total);
  // Units without a span follow the window of the last placed unit before them.
  const windowOf: number[] = [];
  let w = 0;
  units.forEach((u, i) => {
    const t = startOf.get(i);
    if (t !== undefined) while (w + 1 < cuts.length - 1 && t >= cuts[w + 1]!) w++;
    windowOf[i] = w;
  });
  let pe = 0;
  let ph = 0;
  let ww = 0;
  let wn = 0;
  let method = '';
  for (let k = 0; k < cuts.length - 1; k++) {
    const us = units.filter((_, i) => windowOf[i] === k);
    if (us.length === 0) continue;
    const r = backend.recognise(
      samples.subarray(Math.floor(cuts[k]! * SAMPLE_RATE), Math.ceil(cuts[k + 1]! * SAMPLE_RATE)),
      us,
    );
    method = r.method;
    if (!r.counts) continue;
    pe += r.counts.phoneErrors;
    ph += r.counts.phones;
    ww += r.counts.wrongWords;
    wn += r.counts.words;
  }
  if (ph === 0) return { wer: null, cer: null, method: 'no pronounceable words in the transcript' };
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    wer: r3(ww / Math.max(1, wn)),
    cer: r3(Math.min(1, pe / ph)),
    method: `${method} (pooled over 30 s windows)`,
  };
}

const clamp01 = (x: number): number => Math.max(0, Math.min(1, x));
