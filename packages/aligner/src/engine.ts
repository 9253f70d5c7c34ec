// The engine's one entry: audio + transcript -> the platform result (contracts, schema version 1).
// Decoding, text processing, long-audio windowing and scores live here; back-ends only place units.
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { RESULT_SCHEMA_VERSION } from '@tazamun/contracts/result-version';
import type { InputKind } from '@tazamun/contracts/alignment-options';
import type { EngineOptions } from '@tazamun/contracts/engine-options';
import { JobBoundsError, assertJobBounds } from '@tazamun/contracts/job-bounds';
import type { AlignmentResult, QualityReason, WordTiming } from '@tazamun/contracts/alignment-result';
import { lexiconMap, pooledGop } from './acoustic/backend.ts';
import type {
  AcousticBackend,
  LexiconEntry,
  Precision,
  Recognition,
  Unit,
  UnitSpan,
} from './acoustic/backend.ts';
import { HmmBackend, loadAdaptedDecoder, loadSearch } from './acoustic/hmm/backend.ts';
import type { FrameStats } from './acoustic/hmm/adapt/map.ts';
import { asStandIns, correctSpans, restoreLabels } from './acoustic/hmm/adapt/edges.ts';
import { readEdgeCorrection } from './acoustic/hmm/adapt/model-dir.ts';
import type { ModelFamily } from './acoustic/hmm/models.ts';
import { AudioError } from './audio/audio-file.ts';
import { SAMPLE_RATE, probeAudio } from './audio/decode.ts';
import { EngineError, describeThrown, toEngineError } from './errors.ts';
import { loadAlignableAudio } from './audio/load.ts';
import { Samples } from './audio/pcm.ts';
import type { Pcm } from './audio/pcm.ts';
import type { SourceAudioInfo } from './audio/load.ts';
import type { AudioStats } from './audio/measure.ts';
import { SINGLE_MAX, StretchSearches, alignLong } from './align/long-audio.ts';
import type { PieceRunner, PieceWork } from './align/long-audio.ts';
import { WindowPool, pieceThreads } from './align/window-pool.ts';
import type { PieceJob } from './align/window-pool.ts';
import { placeSqueezed } from './align/squeezed.ts';
import { reseatAfterUntranscribed } from './align/reseat.ts';
import { normalizeTranscript, splitWords } from './text/normalize.ts';
import type { ModelToken, SourceWord } from './text/normalize.ts';
import type { AcceptedLanguage } from './text/languages.ts';
import { planAlignment } from './plan.ts';
import { arabicPronunciationLattice, espeakIpa, releaseEspeak } from './text/g2p.ts';
import { buildSegments } from './align/segments.ts';
import { DEFAULT_REFINE, energyTrack, fricationTrack, refineEdges } from './align/refine.ts';
import { wordConfidence } from './metrics/confidence.ts';
import { calibrate, calibrationClass, presence, rawWordScore, wordFits } from './metrics/calibration.ts';
import type { CalibrationClass, WordEvidence } from './metrics/calibration.ts';
import { assessQuality } from './metrics/quality.ts';
import { poolRecognitions, recognitionWindows } from './metrics/recognition.ts';
import { analyseSpeech, speechIn, untranscribedSpeech } from './metrics/speech.ts';
import type { SpeechAnalysis } from './metrics/speech.ts';
import { isSilent } from './audio/measure.ts';
import { checkLanguage } from '@tazamun/contracts/language-check';

/**
 * The request's options under the engine's names (contracts' `EngineOptions`, mapped from a request by
 * `engineOptionsOf`), each with the contract's default when absent, and what a caller adds beside them.
 */
export interface AlignOptions extends Partial<EngineOptions> {
  /** ISO 639-3 or 639-1 code, or a BCP 47 tag (its region may pick a regional voice) */
  lang: string;
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
  /** called now and then with the share of the work done, in [0, 1] */
  onProgress?: (done: number) => void;
  /** 'none' leaves each word's confidence at its raw score (the calibration fit reads those) */
  calibration?: 'fitted' | 'none';
  /** the evidence behind each placed word's confidence, for the bench and the calibration fit */
  onWordEvidence?: (evidence: PlacedEvidence[]) => void;
  /**
   * Threads one long recording may use (hmm engine): pieces of the second pass are aligned on other
   * threads while the first pass goes on (default 1; at most the machine's cores). The result is the
   * same whatever the number.
   */
  threads?: number;
  /**
   * An adapted model's folder (`tazamun adapt`, acoustic/hmm/adapt/model-dir.ts) to align with instead of
   * the language's own model (hmm engine). Its language family must be the transcript's.
   */
  model?: string;
  /**
   * Model adaptation: each closed window's path frames are added to these (adapt/corpus.ts). The pieces
   * of a long recording then stay on this thread.
   */
  adaptation?: FrameStats;
}

/** A placed word's evidence; `cls` is null on a back-end without calibration tables (mms). */
export type PlacedEvidence = WordEvidence & { wordIndex: number; cls: CalibrationClass | null };

function familyFor(lang3: string): ModelFamily {
  return lang3 === 'fra' ? 'fr' : 'en';
}

/**
 * A decoded recording longer than this keeps its 16-bit samples in a file while it is aligned (audio/pcm.ts,
 * PcmFile): ten minutes are 19 MB in memory, three hours 350 MB, a third of the whole job's memory.
 */
const SPILL_SECONDS = 600;

/**
 * Recordings longer than this let eSpeak NG go once their words are pronounced: its 39 MiB would sit
 * through minutes of alignment, and the next job that needs it reloads it in under a second.
 */
const ESPEAK_RELEASE_SECONDS = 600;

/** The back-end for one job. MMS (and onnxruntime) is loaded only when a job needs it. */
export async function selectBackend(
  engine: 'hmm' | 'mms',
  lang3: string,
  modelDir?: string,
): Promise<AcousticBackend> {
  if (engine === 'mms') {
    if (modelDir)
      throw new EngineError(
        'unsupported_option',
        'an adapted model is an hmm model: it cannot align with mms',
      );
    const { loadMmsBackend } = await import('./acoustic/mms/backend.ts');
    return loadMmsBackend();
  }
  const decoder = modelDir
    ? await loadAdaptedDecoder(modelDir, familyFor(lang3))
    : await loadSearch(familyFor(lang3), 'full');
  return new HmmBackend(decoder, { espeakIpa, arabicLattice: arabicPronunciationLattice });
}

/**
 * How far V8 lets a heap grow past what its last full collection kept, in percent, while a long recording
 * is aligned (V8's own choice goes from about 10 % to 300 %). With the search networks as objects, a long
 * job left them behind in the old generation: at V8's choice a 3-hour file peaked at 959–1,062 MiB, at
 * 100 % at 846 MiB for about 8 % more CPU (ADR 0091). With the networks in flat arrays (ADR 0094) the live
 * heap stays small and V8's choice sets its limit so close to it that a full collection starts again at
 * nearly every scavenge (0.18-hour file: 108 full collections against 27 with object networks); at 100 %
 * that file takes 0.98 of the object networks' time at V8's choice and 49 MiB less (docs/benchmarks.md,
 * "A 3-hour file").
 */
const HEAP_GROWING_PERCENT = 100;
/**
 * Recordings at least this long are aligned with the heap's growth bounded: a 5.5-minute file took 0.921
 * of V8's choice's time at the same peak (docs/benchmarks.md, "21:43–22:10 UTC"). Shorter: not measured.
 */
const BOUNDED_HEAP_SECONDS = 300;

/** Long jobs under way in this process (V8's flags are the whole process's, every thread's). */
let boundedJobs = 0;

/**
 * Bounds the heap's growth for a recording of `seconds` when it is long; returns what undoes it (V8's
 * own choice is back once no long job is under way).
 */
function boundHeapGrowth(seconds: number): () => void {
  if (seconds < BOUNDED_HEAP_SECONDS) return () => {};
  if (boundedJobs++ === 0) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return () => {
    if (--boundedJobs === 0) setFlagsFromString('--heap-growing-percent=0');
  };
}

/**
 * Aligns audio with its transcript. Every failure is an AudioError (the audio cannot be used), a
 * JobBoundsError (the input is beyond the job bounds, packages/contracts) or an EngineError (errors.ts): `input` true for what the user's input caused (no retry), false for an engine
 * fault (retry once on a fresh decoder or thread). Nothing else escapes, so no caller prints
 * "[object Object]" for a value the WASM module threw.
 */
export async function align(
  audio: string | Pcm,
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

/** The one pipeline, for every back-end: bounds, back-end, audio, text, units, search, scores, result. */
async function alignUnchecked(
  audio: string | Pcm,
  text: string,
  options: AlignOptions,
): Promise<AlignmentResult> {
  const t0 = performance.now();
  // The bounds the server checks at upload (packages/contracts/src/job-bounds.ts), here for CLI users:
  // a transcript the audio cannot hold is refused before it costs gigabytes.
  // A file is probed once: the probe serves this check and the decode below.
  const probe = typeof audio === 'string' ? await probeAudio(audio) : undefined;
  const probed =
    typeof audio === 'string'
      ? probe!
      : { duration: audio.length / SAMPLE_RATE, sampleRate: options.audioInfo?.sampleRate ?? 0 };
  assertJobBounds({ durationSeconds: probed.duration, sampleRate: probed.sampleRate, text });
  const precision = options.precision ?? 'standard';
  // The language and the back-end, decided once (plan.ts): what follows reads the accepted language.
  const plan = planAlignment(options.lang, { inputKind: options.inputKind, engine: options.engine });
  const { inputKind, language: accepted } = plan;
  const lang3 = accepted.iso3;
  // Before decoding: a model that is missing or not the expected one fails before an hour of audio is read.
  const backend = await selectBackend(plan.backend, lang3, options.model);
  if (options.adaptation && backend instanceof HmmBackend) backend.collecting = options.adaptation;
  const warnings: string[] = [...plan.notes];
  const warn = (message: string): void => {
    if (!warnings.includes(message)) warnings.push(message);
  };

  const loaded = await loadAlignableAudio(
    audio,
    options.audioInfo,
    true,
    backend.traits.pcm16 ? 'int16' : 'float32',
    probe,
    SPILL_SECONDS,
  );
  const { info: audioInfo, stats } = loaded;
  // the audio is in: from here on the work is the alignment's (a host reports its step from this call)
  options.onProgress?.(0);
  // Read a window at a time; digital zeros are dithered in each window read, never in the stored samples.
  const samples = new Samples(loaded.samples, backend.traits.ditherZeros);
  const unbound = boundHeapGrowth(stats.duration);
  try {
    // Silence is answered with a completed result (every word not found, verdict no_speech), not an error.
    const silent = isSilent(stats);
    if (stats.clippingRatio > 0.001)
      warnings.push(`the audio clips (${(stats.clippingRatio * 100).toFixed(2)} % of samples)`);

    const lexicon = lexiconMap(options.lexicon);
    const hasWord = backend.hasWord?.bind(backend);
    const transcript = transcriptTokens(text, options, accepted, inputKind, {
      hasWord: hasWord
        ? (w) => lexicon.has(w.normalize('NFC').toLowerCase()) || hasWord(w, lang3)
        : undefined,
    });
    warnings.push(...transcript.warnings);
    const {
      units,
      route,
      warnings: pw,
    } = await backend.pronounce(transcript.tokens, options.lang, inputKind, lexicon);
    warnings.push(...pw);
    if (stats.duration > ESPEAK_RELEASE_SECONDS) releaseEspeak();

    const recognition = options.recognition !== false;
    // The recognition pass costs about a sixth of the alignment (nothing when the back-end recognises the
    // windows it searched: the HMM's phone loop over their scores).
    const share = recognition ? 0.85 : 1;
    const windowRecognitions: Recognition[] = [];
    const pool = options.adaptation
      ? null
      : piecePool(backend, options.threads, samples.length / SAMPLE_RATE, options.model);
    const speech = analyseSpeech(stats.frameDb, stats.frameTiltDb);
    let searched: UnitSpan[];
    try {
      const rawSpans = silent
        ? []
        : await alignLong(backend, samples, units, {
            precision,
            garbage: options.garbage ?? true,
            onProgress: options.onProgress ? (d) => options.onProgress!(d * share) : undefined,
            warn,
            onRecognition: recognition ? (r) => windowRecognitions.push(r) : undefined,
            pieces: pool?.runner(precision, options.garbage ?? true, recognition),
          });
      // the searches for words left out, and the reseat's, share the piece threads too (the pool closes
      // after them): each step's own, with or without the garbage path
      const stretchSearches = (garbage: boolean) =>
        new StretchSearches(backend, samples, units, {
          precision,
          garbage,
          pieces: pool?.runner(precision, garbage, false),
        });
      const squeezed = silent
        ? rawSpans
        : await placeSqueezed(stretchSearches(false), units, rawSpans, samples.length / SAMPLE_RATE);
      searched =
        silent || !(backend instanceof HmmBackend)
          ? squeezed
          : await reseatAfterUntranscribed(stretchSearches(true), squeezed, speech.regions);
    } finally {
      await pool?.close();
    }
    // (an adapted model's own phones are refined as the phones they were cloned from: ʕ as HH)
    const named =
      backend instanceof HmmBackend ? asStandIns(searched, backend.decoder.spec.extraPhones) : null;
    const refinedNamed = backend.traits.refineEdges
      ? refineEdges(named ?? searched, energyTrack(samples), stats.duration, DEFAULT_REFINE, (from, to) =>
          fricationTrack(samples, false, from, to),
        )
      : searched;
    const refined =
      named && backend.traits.refineEdges ? restoreLabels(refinedNamed, searched) : refinedNamed;
    // an adapted model that learnt from hand corrections where people put word edges moves them so
    const edges = options.model ? readEdgeCorrection(options.model) : null;
    const spans = edges ? correctSpans(refined, (u) => units[u]!.wordIndex, edges, stats.duration) : refined;
    const recog =
      recognition && !silent
        ? windowRecognitions.length
          ? poolRecognitions(windowRecognitions)
          : await recogniseWindowed(backend, samples, units, spans)
        : null;
    options.onProgress?.(1);

    const placed = placeWords(backend, transcript.words, units, spans, recog, {
      route,
      inputKind,
      calibration: options.calibration ?? 'fitted',
      speech,
    });
    options.onWordEvidence?.(placed.evidence);
    return buildResult({
      t0,
      text,
      lang3,
      inputKind,
      engine: { backend: backend.name, model: backend.model, version: backend.version, precision, route },
      audio: audioInfo,
      stats,
      processed: units
        .map((u) => u.text)
        .filter(Boolean)
        .join(' '),
      placed,
      recog,
      speech,
      warnings,
    });
  } finally {
    // a long recording's samples file goes as soon as the job is done, whatever happened
    samples.close();
    unbound();
  }
}

/**
 * Threads for the pieces of one long recording on the HMM decoder (align/window-pool.ts), started only when
 * the recording takes the two-pass path and more than one thread is allowed. (Exported for its tests.)
 */
export function piecePool(
  backend: AcousticBackend,
  threads: number | undefined,
  seconds: number,
  modelDir: string | undefined,
) {
  const n = pieceThreads(threads);
  if (n < 2 || seconds <= SINGLE_MAX || !(backend instanceof HmmBackend) || !backend.family) return null;
  const family = backend.family;
  // the threads load the model while the first pass runs here
  const pool = new WindowPool(n - 1, { family, modelDir });
  // each job given to a thread and the piece it was made from (a job taken back is run from its piece:
  // its samples went to the thread)
  const given = new WeakMap<PieceJob, PieceWork>();
  return {
    runner: (precision: Precision, garbage: boolean, recognise: boolean): PieceRunner => ({
      get free() {
        return pool.free;
      },
      run: (p) => {
        const job: PieceJob = {
          family,
          modelDir,
          pcm: p.samples.copy(),
          origin: p.samples.origin,
          offset: p.offset,
          units: p.units,
          coarse: p.coarse,
          adaptation: p.adaptation,
          precision,
          garbage,
          recognise: p.recognise ?? recognise,
          leadingLoop: p.leadingLoop,
          forced: p.forced,
        };
        given.set(job, p);
        return pool.run(job);
      },
      takeBack: () => {
        const taken = pool.takeBack();
        if (!taken) return null;
        const work = given.get(taken.job);
        if (!work) {
          // (every job is given here, so never: a job taken back is never left unanswered)
          taken.settle({ ok: false, error: 'a piece taken back is not known' });
          return null;
        }
        const { precision, garbage, recognise } = taken.job;
        return {
          work,
          settings: { precision, garbage, recognise },
          done: (outcome) => taken.settle({ ok: true, outcome }),
          failed: (cause) => taken.settle({ ok: false, error: describeThrown(cause), cause }),
        };
      },
    }),
    close: () => pool.close(),
  };
}

/**
 * The transcript's words as written and the tokens the model gets. A language of the table is
 * normalised by its rules (IPA by the IPA rules of any code); a language only MMS reads keeps its words
 * as written, one token each, with no number expansion (digits are reported as not romanised).
 */
function transcriptTokens(
  text: string,
  options: AlignOptions,
  accepted: AcceptedLanguage,
  inputKind: InputKind,
  lookup: { hasWord?: (form: string) => boolean },
): { words: SourceWord[]; tokens: ModelToken[]; warnings: string[] } {
  if (!accepted.text) {
    const words = splitWords(text);
    return {
      words,
      tokens: words.map((w) => ({ text: w.text, wordIndex: w.index })),
      warnings: [`language "${accepted.iso3}" has no text rules here: words are romanised as written`],
    };
  }
  const norm = normalizeTranscript(text, accepted.text, {
    normalize: options.normalize ?? true,
    numbersToWords: options.numbersToWords ?? true,
    removeFillers: options.removeFillers ?? false,
    inputKind,
    hasWord: lookup.hasWord,
  });
  return { words: norm.words, tokens: norm.tokens, warnings: [] };
}

interface PlacedWords {
  words: WordTiming[];
  evidence: PlacedEvidence[];
  /** per word, in order: placed and its audio fits it (calibrated back-ends only) */
  fits: boolean[] | undefined;
}

/** Each source word with the spans of its units: times, phones, confidence, and the evidence behind it. */
function placeWords(
  backend: AcousticBackend,
  sourceWords: SourceWord[],
  units: Unit[],
  spans: UnitSpan[],
  recog: Recognition | null,
  ctx: { route: string; inputKind: InputKind; calibration: 'fitted' | 'none'; speech: SpeechAnalysis },
): PlacedWords {
  const byWord = new Map<number, UnitSpan[]>();
  for (const s of spans) {
    const w = units[s.unit]!.wordIndex;
    byWord.set(w, [...(byWord.get(w) ?? []), s]);
  }
  const spanIndex = new Map(spans.map((s, i) => [s, i]));
  const unitsByWord = new Map<number, Unit[]>();
  for (const u of units) unitsByWord.set(u.wordIndex, [...(unitsByWord.get(u.wordIndex) ?? []), u]);
  const evidence: PlacedEvidence[] = [];
  const words: WordTiming[] = sourceWords.map((w) => {
    const ss = byWord.get(w.index) ?? [];
    const wordUnits = unitsByWord.get(w.index) ?? [];
    const base = {
      index: w.index,
      word: w.text,
      normalized: wordUnits
        .map((u) => u.text)
        .filter(Boolean)
        .join(' '),
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
      gop: pooledGop(ss),
      spread:
        ss[0]!.spread && ss[ss.length - 1]!.spread
          ? Math.max(ss[0]!.spread[0], ss[ss.length - 1]!.spread![1])
          : null,
      atPause: touchesPause(spans, spanIndex, ss),
      ...phoneEvidence(ss),
      ...surroundings(spans, spanIndex, ss, ctx.speech),
    };
    const cls = backend.traits.calibrated
      ? calibrationClass(ctx.route, ctx.inputKind, wordUnits, w.text)
      : null;
    evidence.push({ ...ev, wordIndex: w.index, cls });
    return {
      ...base,
      start,
      end,
      duration: Math.round((end - start) * 10000) / 10000,
      confidence: wordScore(ev, cls, ctx.calibration),
      status: 'aligned' as const,
      phones: backend.phoneTier(units, ss),
    };
  });
  const fitOf = new Map(evidence.map((e) => [e.wordIndex, e.cls !== null && wordFits(e, e.cls)]));
  const fits = backend.traits.calibrated ? words.map((w) => fitOf.get(w.index) ?? false) : undefined;
  return { words, evidence, fits };
}

/** A pause between placed words this long (s) makes the words on either side "at a pause". */
const PAUSE = 0.1;

/** The word is the first or last placed, or a pause separates it from a neighbour. */
function touchesPause(all: UnitSpan[], index: Map<UnitSpan, number>, word: UnitSpan[]): boolean {
  const first = index.get(word[0]!) ?? -1;
  const last = index.get(word[word.length - 1]!) ?? -1;
  if (first <= 0 || last < 0 || last >= all.length - 1) return true;
  return (
    word[0]!.start - all[first - 1]!.end >= PAUSE ||
    all[last + 1]!.start - word[word.length - 1]!.end >= PAUSE
  );
}

/** Per-phone evidence of a word's units (the HMM decoder's): phone GOPs, shortest phone, edges. */
function phoneEvidence(
  ss: UnitSpan[],
): Pick<WordEvidence, 'phoneGop' | 'worstGop' | 'minFrames' | 'spreads' | 'edgePhones'> {
  const first = ss[0]!;
  const last = ss[ss.length - 1]!;
  const withGop = ss.filter((s) => s.phoneGop !== undefined);
  const firstPhone = first.phones[0]?.phone;
  const lastPhone = last.phones[last.phones.length - 1]?.phone;
  return {
    phoneGop: withGop.length ? withGop.reduce((a, s) => a + s.phoneGop!, 0) / withGop.length : null,
    worstGop: withGop.length ? Math.max(...withGop.map((s) => s.worstGop ?? s.phoneGop!)) : null,
    minFrames: withGop.length ? Math.min(...withGop.map((s) => s.minFrames ?? Infinity)) : null,
    spreads: first.spread && last.spread ? [first.spread[0], last.spread[1]] : null,
    edgePhones: firstPhone && lastPhone ? [firstPhone, lastPhone] : null,
  };
}

/**
 * What lies around a placed word: whether the search's window ends at either edge, the placed words on
 * either side (their phones at the edges, the silence between), and the speech between them that no
 * word took.
 */
function surroundings(
  all: UnitSpan[],
  index: Map<UnitSpan, number>,
  ss: UnitSpan[],
  speech: SpeechAnalysis,
): Pick<WordEvidence, 'open' | 'outerPhones' | 'gaps' | 'gapSpeech'> {
  const first = ss[0]!;
  const last = ss[ss.length - 1]!;
  const i = index.get(first) ?? -1;
  const j = index.get(last) ?? -1;
  const prev = i > 0 ? all[i - 1]! : null;
  const next = j >= 0 && j + 1 < all.length ? all[j + 1]! : null;
  const f = speech.frames;
  const r4 = (x: number): number => Math.round(x * 10000) / 10000;
  return {
    open: first.open && last.open ? [first.open[0], last.open[1]] : null,
    outerPhones: [prev?.phones[prev.phones.length - 1]?.phone ?? null, next?.phones[0]?.phone ?? null],
    gaps: [prev ? r4(first.start - prev.end) : null, next ? r4(next.start - last.end) : null],
    gapSpeech: [
      speechIn(f, prev ? prev.end : 0, first.start),
      speechIn(f, last.end, next ? next.start : f.length / 100),
    ],
  };
}

/**
 * A placed word's confidence: the calibrated probability that its edges are within 50 ms of a person's
 * (metrics/calibration.ts), or its raw score when asked. A back-end without tables (cls null: MMS, whose
 * real model has not been run on the dev sets) reports its own score as it is, the mean posterior of
 * the word's letters; the verdict then judges fit by QUALITY.wordFitMin on it.
 */
function wordScore(ev: WordEvidence, cls: CalibrationClass | null, calibration: 'fitted' | 'none'): number {
  if (cls === null) return ev.p;
  const raw = rawWordScore(ev, cls);
  return calibration === 'none' ? raw : calibrate(raw, cls) * presence(ev, cls);
}

interface ResultInput {
  /** performance.now() when the job started */
  t0: number;
  text: string;
  lang3: string;
  inputKind: InputKind;
  engine: AlignmentResult['engine'];
  audio: SourceAudioInfo;
  stats: AudioStats;
  processed: string;
  placed: PlacedWords;
  recog: Recognition | null;
  speech: SpeechAnalysis;
  warnings: string[];
}

/** The platform result (contracts, schema version 1): segments, metrics, the verdict and its reasons. */
function buildResult(r: ResultInput): AlignmentResult {
  const { words, fits } = r.placed;
  const { stats, speech } = r;
  const aligned = words.filter((w) => w.status === 'aligned');
  const untranscribed = untranscribedSpeech(speech, words);
  const lang = checkLanguage(r.text, r.lang3, r.inputKind);
  const assessed = assessQuality({
    words,
    fits,
    speech,
    untranscribedSeconds: untranscribed.seconds,
    untranscribedInnerSeconds: untranscribed.innerSeconds,
    untranscribedLongestSeconds: untranscribed.longestSeconds,
    duration: stats.duration,
    clippingRatio: stats.clippingRatio,
    language: { chosen: r.lang3, ...lang },
  });
  const processing = (performance.now() - r.t0) / 1000;
  return {
    schema_version: RESULT_SCHEMA_VERSION,
    language: r.lang3,
    engine: r.engine,
    audio: {
      duration: stats.duration,
      sample_rate: r.audio.sampleRate,
      channels: r.audio.channels,
      format: r.audio.format,
      peak_dbfs: stats.peakDbfs,
      clipping_ratio: stats.clippingRatio,
      silence_ratio: stats.silenceRatio,
    },
    text: { original: r.text, processed: r.processed, input_kind: r.inputKind },
    words,
    segments: buildSegments(r.text, words),
    metrics: {
      coverage: words.length ? aligned.length / words.length : 0,
      mean_confidence: aligned.length ? aligned.reduce((a, w) => a + w.confidence, 0) / aligned.length : 0,
      wer: assessed.wer,
      cer: assessed.cer,
      wer_method: assessed.method,
      // the recognition pass's own label error rate (phones on hmm, letters on mms), kept as a diagnostic
      phone_error_rate: r.recog?.cer ?? null,
      speech_seconds: speech.speechSeconds,
      untranscribed_speech_seconds: untranscribed.seconds,
      words_total: words.length,
      words_aligned: aligned.length,
      audio_duration: stats.duration,
      processing_time: processing,
      real_time_factor: stats.duration ? processing / stats.duration : 0,
    },
    detected_language: lang.detected,
    quality: assessed.quality,
    warnings: [...r.warnings, ...wordWarnings(words, assessed.quality.reasons)],
  };
}

/**
 * The words behind the reasons, named for a person reading the JSON or the CLI's output: "not found in
 * the audio: “greasy” (index 6), …" (at most 20 named; the reason's `words` lists them all).
 */
function wordWarnings(words: WordTiming[], reasons: QualityReason[]): string[] {
  const out: string[] = [];
  const named = (indices: number[]): string => {
    const shown = indices.slice(0, 20).map((i) => `“${words[i]?.word ?? ''}” (index ${i})`);
    return indices.length > 20 ? `${shown.join(', ')} and ${indices.length - 20} more` : shown.join(', ');
  };
  for (const r of reasons) {
    if (!r.words?.length) continue;
    if (r.code === 'words_not_found') out.push(`not found in the audio: ${named(r.words)}`);
    if (r.code === 'low_confidence') out.push(`placed, but fitting their audio poorly: ${named(r.words)}`);
  }
  return out;
}

/**
 * The recognition pass over windows of at most 30 s (cut at aligned word edges), each scored against the
 * words the alignment put in it; counts are pooled (metrics/recognition.ts). Keeps memory and the
 * edit-distance cost linear.
 */
async function recogniseWindowed(
  backend: AcousticBackend,
  samples: Samples,
  units: Unit[],
  spans: UnitSpan[],
): Promise<Recognition> {
  const rs: Recognition[] = [];
  for (const w of recognitionWindows(samples.length / SAMPLE_RATE, units, spans)) {
    const from = Math.floor(w.start * SAMPLE_RATE);
    const to = Math.min(samples.length, Math.ceil(w.end * SAMPLE_RATE));
    rs.push(await backend.recognise(samples.window(from, to), w.units));
  }
  return poolRecognitions(rs);
}
