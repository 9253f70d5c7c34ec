// The engine's one entry: audio + transcript -> the platform result (contracts, schema version 1).
// Decoding, text processing, long-audio windowing and scores live here; back-ends only place units.
import { performance } from 'node:perf_hooks';
import { RESULT_SCHEMA_VERSION } from '@tazamun/contracts/alignment-result';
import { JobBoundsError, assertJobBounds } from '@tazamun/contracts/job-bounds';
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
import { AudioError, SAMPLE_RATE, probeAudio } from './audio/decode.ts';
import { EngineError, toEngineError } from './errors.ts';
import { loadAlignableAudio } from './audio/load.ts';
import type { SourceAudioInfo } from './audio/load.ts';
import { alignLong } from './align/long-audio.ts';
import { normalizeTranscript } from './text/normalize.ts';
import { acceptLanguage } from './text/languages.ts';
import { chooseEngine } from './models/registry.ts';
import { arabicPronunciationLattice, espeakIpa } from './text/g2p.ts';
import { buildSegments } from './align/segments.ts';
import { energyTrack, refineEdges } from './align/refine.ts';
import { wordConfidence } from './metrics/confidence.ts';
import { calibrate, calibrationClass, rawWordScore, wordFits } from './metrics/calibration.ts';
import type { CalibrationClass, WordEvidence } from './metrics/calibration.ts';
import { assessQuality } from './metrics/quality.ts';
import { analyseSpeech, untranscribedSpeech } from './metrics/speech.ts';
import { isSilent } from './audio/measure.ts';
import { ipaPhones } from './align/ipa-tier.ts';
import { checkLanguage } from '@tazamun/contracts/language-check';

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
  /**
   * Where `audio` came from when it is samples the caller decoded itself (the server's job thread cuts a
   * window out of a decoded file): the result's audio block reports this format, rate and channel count,
   * and the sample rate is checked against the job bounds. Ignored when `audio` is a path.
   */
  audioInfo?: SourceAudioInfo;
  /** called now and then with the share of the work done, in [0, 1] (hmm engine) */
  onProgress?: (done: number) => void;
  /** 'none' leaves each word's confidence at its raw score (the calibration fit reads those) */
  calibration?: 'fitted' | 'none';
  /** the evidence behind each placed word's confidence, for the bench and the calibration fit */
  onWordEvidence?: (evidence: (WordEvidence & { wordIndex: number; cls: CalibrationClass })[]) => void;
}

/**
 * Digital silence (runs of exact zeros) gives the HMM front end log(0) energies; a dither of about one
 * 16-bit step (-96 dBFS), on those samples only, keeps the features finite and leaves real audio untouched.
 */
function ditherZeros(samples: Float32Array): Float32Array {
  let seed = 12345;
  let out: Float32Array | null = null;
  for (let i = 0; i < samples.length; i++) {
    if (samples[i] !== 0) continue;
    out ??= Float32Array.from(samples);
    seed = (seed * 1664525 + 1013904223) >>> 0;
    out[i] = (seed / 4294967296 - 0.5) / 16384;
  }
  return out ?? samples;
}

function familyFor(lang3: string): ModelFamily {
  return lang3 === 'fra' ? 'fr' : 'en';
}

async function selectBackend(lang3: string): Promise<AcousticBackend> {
  const decoder = await loadDecoder(familyFor(lang3), 'full');
  return new HmmBackend(decoder, { espeakIpa, arabicLattice: arabicPronunciationLattice });
}

/**
 * Aligns audio with its transcript. Every failure is an AudioError (the audio cannot be used), a
 * JobBoundsError (the input is beyond the job bounds, packages/contracts) or an EngineError (errors.ts): `input` true for what the user's input caused (no retry), false for an engine
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
    // JobBoundsError: an input error with the catalogue's code and numbers (contracts' job-bounds.ts)
    if (err instanceof AudioError || err instanceof EngineError || err instanceof JobBoundsError) throw err;
    throw toEngineError(err);
  }
}

async function alignUnchecked(
  audio: string | Float32Array,
  text: string,
  options: AlignOptions,
): Promise<AlignmentResult> {
  const t0 = performance.now();
  // The bounds the server checks at upload (packages/contracts/src/job-bounds.ts), here for CLI users:
  // a transcript the audio cannot hold is refused before it costs gigabytes.
  const probed =
    typeof audio === 'string'
      ? await probeAudio(audio)
      : { duration: audio.length / SAMPLE_RATE, sampleRate: options.audioInfo?.sampleRate ?? 0 };
  assertJobBounds({ durationSeconds: probed.duration, sampleRate: probed.sampleRate, text });
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

  const loaded = await loadAlignableAudio(audio, options.audioInfo, true);
  const { info: audioInfo, stats } = loaded;
  const samples = ditherZeros(loaded.samples);
  // Silence is answered with a completed result (every word not found, verdict no_speech), not an error.
  const silent = isSilent(stats);
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
  const rawSpans = silent
    ? []
    : alignLong(backend, samples, units, {
        precision,
        garbage: options.garbage ?? true,
        onProgress: options.onProgress ? (d) => options.onProgress!(d * share) : undefined,
      });
  const spans = refineEdges(rawSpans, energyTrack(samples), stats.duration);

  const recog = recognition && !silent ? recogniseWindowed(backend, samples, units, spans) : null;
  const family = familyFor(lang3);
  const evidence: (WordEvidence & { wordIndex: number; cls: CalibrationClass })[] = [];
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
    const loop = recog?.perWord?.get(w.index);
    const ev: WordEvidence = {
      p: ss.reduce((a, s) => a + s.confidence, 0) / ss.length,
      phones: ss.reduce((a, s) => a + Math.max(1, s.phones.length), 0),
      seconds: end - start,
      legacy: wordConfidence(ss),
      loopHit: loop?.hit ?? null,
      loopN: loop?.n ?? null,
    };
    const cls = calibrationClass(route, inputKind, unitsByWord.get(w.index) ?? []);
    evidence.push({ ...ev, wordIndex: w.index, cls });
    const raw = rawWordScore(ev);
    return {
      ...base,
      start,
      end,
      duration: Math.round((end - start) * 10000) / 10000,
      confidence: options.calibration === 'none' ? raw : calibrate(raw, cls),
      status: 'aligned' as const,
      phones: ipaPhones(units, ss, family),
    };
  });
  options.onWordEvidence?.(evidence);

  const segments: Segment[] = buildSegments(text, words);
  const aligned = words.filter((w) => w.status === 'aligned');
  const speech = analyseSpeech(stats.frameDb);
  const untranscribed = untranscribedSpeech(speech, words);
  const lang = checkLanguage(text, lang3, inputKind);
  const fitOf = new Map(evidence.map((e) => [e.wordIndex, wordFits(e, e.cls)]));
  const assessed = assessQuality({
    words,
    fits: words.map((w) => fitOf.get(w.index) ?? false),
    speech,
    untranscribedSeconds: untranscribed,
    duration: stats.duration,
    clippingRatio: stats.clippingRatio,
    language: { chosen: lang3, ...lang },
  });
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
      wer: assessed.wer,
      cer: assessed.cer,
      wer_method: assessed.method,
      phone_error_rate: recog?.cer ?? null,
      speech_seconds: speech.speechSeconds,
      untranscribed_speech_seconds: untranscribed,
      words_total: words.length,
      words_aligned: aligned.length,
      audio_duration: stats.duration,
      processing_time: processing,
      real_time_factor: stats.duration ? processing / stats.duration : 0,
    },
    detected_language: lang.detected,
    quality: assessed.quality,
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
