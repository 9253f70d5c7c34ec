// The contract between the engine and an acoustic back-end. A back-end turns the transcript's model tokens
// into units it can score (pronunciations in its own unit set) and places those units in the audio. The
// engine owns everything else: decoding, text processing, long-audio windowing, scores and the result.

import type { PhoneTiming, PronunciationSource } from '@tazamun/contracts/alignment-result';
import type { InputKind } from '@tazamun/contracts/alignment-options';
import type { Precision } from '@tazamun/contracts/limits';

// declared once in the contracts; named here too because every back-end imports its types from here
export type { Precision };

export interface Unit {
  /** index into the normaliser's token list */
  tokenIndex: number;
  wordIndex: number;
  text: string;
  /** alternative pronunciations, each a list of the model's phone labels */
  prons: string[][];
  /** instead of whole pronunciations: slots of alternative phone sequences ([] = the slot may be silent) */
  lattice?: string[][][];
  /** the IPA each pronunciation was made from (prons[i] <- ipa[i]); absent for dictionary words */
  ipa?: string[];
  /** the IPA of each lattice alternative (lattice[s][a] <- latticeIpa[s][a]) */
  latticeIpa?: string[][];
  /** where the pronunciation came from (absent when there is none) */
  source?: PronunciationSource;
}

/** Whether a search can place the unit: it has a pronunciation or a lattice to spell it with. */
export function placeable(u: Unit): boolean {
  return u.prons.length > 0 || (u.lattice?.length ?? 0) > 0;
}

/**
 * The placeable units a path skipped, run by run: before each of its spans (in unit order) and, last,
 * after its last span to the end of `units`.
 */
export function skippedRuns(units: readonly Unit[], spans: readonly { unit: number }[]): number[] {
  const runs: number[] = [];
  let u = 0;
  for (const s of spans) {
    let n = 0;
    for (; u < s.unit; u++) if (placeable(units[u]!)) n++;
    runs.push(n);
    u = s.unit + 1;
  }
  let n = 0;
  for (; u < units.length; u++) if (placeable(units[u]!)) n++;
  runs.push(n);
  return runs;
}

/** The text's placeable units before the first one the spans place (all of them when there is none). */
export function leadingUnplaced(units: readonly Unit[], spans: readonly { unit: number }[]): number {
  return skippedRuns(units, spans.slice(0, 1))[0]!;
}

/**
 * Consecutive words with a pronunciation that a search skipped before its path counts as derailed there
 * (it drifted away from the speech): the back-ends search such a window again, and the long-audio first
 * pass commits nothing past such a run.
 */
export const DERAILED_RUN = 4;
/**
 * The first pass of a long recording may leave out at most this many of its text's first words (a loop
 * before the text took them with the introduction before it): the first piece looks for them just before
 * the first word placed (long-audio's textStart).
 */
export const LEADING_SKIPPED_MAX = 8;
/** Seconds allowed for each such word when looking for them before the first word placed. */
export const SKIPPED_WORD_SECONDS = 0.4;

/** A user's own pronunciation: consulted before the model's dictionary and eSpeak. */
export interface LexiconEntry {
  word: string;
  ipa: string;
}

/** The lexicon as the back-ends look words up: lower-cased NFC word -> IPA. */
export function lexiconMap(entries: readonly LexiconEntry[] = []): Map<string, string> {
  return new Map(entries.map((e) => [e.word.normalize('NFC').toLowerCase(), e.ipa]));
}

export interface PhoneSpan {
  phone: string;
  start: number;
  end: number;
  confidence: number;
}

export interface UnitSpan {
  unit: number;
  start: number;
  end: number;
  confidence: number;
  phones: PhoneSpan[];
  /**
   * Goodness of pronunciation: how much worse, per frame (nats), the unit's forced path explains its
   * audio than the free phone loop does over the same frames (0: as well as any phones could; large:
   * the audio is not these phones). Absent where the back-end has no phone loop.
   */
  gop?: number;
  /** frames the unit spans (the GOP's weight when units are pooled) */
  frames?: number;
  /** how uncertain its start and end are: mean distance (frames) under their local posterior */
  spread?: [number, number];
  /** GOP of each of its phones (per frame, nats over that phone's own frames), averaged over the phones */
  phoneGop?: number;
  /** the largest GOP of one of its phones */
  worstGop?: number;
  /** frames of its shortest phone on the path (3: a phone at the model's minimum duration) */
  minFrames?: number;
  /**
   * its start, its end is an edge of the searched window: no phone of the path lies before (after) it,
   * so no posterior placed that edge (the audio's edge or the energy refinement did)
   */
  open?: [boolean, boolean];
}

/**
 * Units' goodness of pronunciation pooled over their frames (each unit's GOP weighted by its frames);
 * units without one are left out, and null when none has one.
 */
export function pooledGop(spans: readonly UnitSpan[]): number | null {
  let g = 0;
  let n = 0;
  for (const s of spans) {
    if (s.gop === undefined) continue;
    const w = s.frames ?? 1;
    g += s.gop * w;
    n += w;
  }
  return n > 0 ? g / n : null;
}

export interface WindowRequest {
  samples: Float32Array;
  /** seconds added to every time returned (position of the window in the file) */
  offset: number;
  units: Unit[];
  precision: Precision;
  /** the window may end before the last unit (long audio) */
  openEnd: boolean;
  /**
   * The window may begin with speech its text does not hold: the first window of a long recording, whose
   * text may start after an introduction. A loop before the first unit takes it.
   */
  openStart?: boolean;
  /**
   * The windows before this one (from the recording's start) held no word of its text: the recording opens
   * with a stretch its text leaves out, and the loop before the first unit is searched for whatever the
   * path in the text's order looks like (with openStart).
   */
  afterIntro?: boolean;
  /**
   * Speech the text leaves out may lie between its words: the window is searched once with a loop between
   * them (the long-audio first pass's window searched again after its path ran ahead of the speech,
   * segmentPass). Only segmentWindow reads it.
   */
  wordLoop?: boolean;
  /**
   * At most this many units skipped at the window's start in one hop (absent: the grammar's own bound,
   * OPEN_HEAD_SKIP_MAX for an open end). The long-audio first pass's window searched again from words it
   * had committed (segmentPass) reaches as far as the first search did.
   */
  headSkipMax?: number;
  /**
   * The window is the whole recording, searched once (a recording short enough for one closed search):
   * speech before its text's first word or after its last is speech the text leaves out, which the
   * back-end may search for (the HMM's loops at the text's ends, ADR 0107). Not a piece of a long one.
   */
  wholeRecording?: boolean;
  /** units may be absent from the audio and extra speech may be present */
  garbage: boolean;
  /**
   * A loop before the first unit and none between units: the units are said at once, at the window's end,
   * after speech the text leaves out (align/reseat.ts). Only the HMM back-end reads it.
   */
  leadingLoop?: boolean;
  /**
   * Every unit is placed (no unit skipped, no garbage): a local search over a few seconds whose result
   * the caller judges, for words the full search left out. The back-end widens its search as far as it
   * takes to find a path through all of them.
   */
  forced?: boolean;
  /** called now and then with the share of this window's search done, in [0, 1] */
  onProgress?: (done: number) => void;
  /** a note for the result's warnings (the search suspects the text and audio do not match, ...) */
  warn?: (message: string) => void;
  /**
   * Called with a recognition of this window's audio scored against its units, by a back-end that can
   * recognise the window it has just scored at little cost (the HMM's phone loop over the same frame
   * scores): the engine then pools these instead of a recognition pass of its own.
   */
  onRecognition?: (r: Recognition) => void;
  /**
   * A first pass's window (long audio): what its path hears of the speaker goes to this track, which keeps
   * the part its caller commits (SpeakerTrack.keep).
   */
  listen?: SpeakerTrack;
  /**
   * The speaker adaptation to search with, fitted to the first pass's path over this window (long audio),
   * instead of one fitted to a first search of the window's own.
   */
  adaptation?: SpeakerAdaptation;
  /** words the first pass placed in this window: an adapted search that places fewer is checked */
  expected?: number;
}

/**
 * A back-end's adaptation to a recording's speaker over a stretch of it (the HMM's feature transform):
 * plain data, so that a piece's thread can be given it; the pipeline only passes it on.
 */
export interface SpeakerAdaptation {
  /** the frames of speech it was fitted to */
  readonly frames: number;
  readonly id: string;
}

/**
 * What a long recording's first pass heard of its speaker, by time in the file, for the pieces searched
 * after it: each piece's adaptation is fitted to the first pass's path over that piece's stretch, so the
 * piece needs no first search of its own to fit it.
 */
export interface SpeakerTrack {
  /**
   * Keeps what the last window searched with `listen` heard in [from, upTo) seconds of the file (its
   * committed words; before `from`, frames an earlier window's keep() took) and drops the rest. Called
   * before the back-end's release().
   */
  keep(upTo: number, from?: number): void;
  /** The adaptation for the file's stretch [from, to) in seconds; none when too little speech was heard. */
  adaptationFor(from: number, to: number): SpeakerAdaptation | undefined;
  /** Drops what was heard before `t` seconds (no piece will ask for it). */
  forget(t: number): void;
}

export interface Recognition {
  wer: number | null;
  cer: number | null;
  method: string;
  /** raw counts, so recognition over windows of a long file can be pooled */
  counts?: { phoneErrors: number; phones: number; wrongWords: number; words: number };
  /** per transcript word (wordIndex): phones of its pronunciation the pass recognised, out of n */
  perWord?: Map<number, { hit: number; n: number }>;
}

/**
 * What the engine's one pipeline does differently per back-end, so that it branches on what a back-end
 * needs rather than on its name.
 */
export interface BackendTraits {
  /**
   * Runs of exact zeros are dithered before the search: a front end that takes log energies (the HMM's
   * MFCCs) gets log(0) from digital silence. A model that normalises each window itself gets the samples
   * as they are.
   */
  ditherZeros: boolean;
  /**
   * Word edges that touch a pause are moved to the energy crossing after the search (align/refine.ts):
   * the correction measured for the HMM's silence model. A back-end with its own boundary rule (the CTC
   * spans' pads) keeps its edges.
   */
  refineEdges: boolean;
  /**
   * The search is linear in the audio in bounded memory (a banded, checkpointed CTC Viterbi): long-audio
   * alignment gives it the whole file as one window instead of cutting the file into windows.
   */
  wholeFile: boolean;
  /**
   * Word confidences go through the calibration tables fitted on the dev sets (metrics/calibration.ts),
   * and the verdict judges each word's fit with the fitted thresholds. Without a fit, a word's
   * confidence is the back-end's own score and the verdict uses QUALITY.wordFitMin (metrics/quality.ts).
   */
  calibrated: boolean;
  /**
   * The recording may be kept as 16-bit integers (audio/pcm.ts): the model was trained on 16-bit audio,
   * and a long file then takes half the memory. A back-end that keeps state across windows of one float
   * array (MMS reuses its emissions) keeps floats.
   */
  pcm16: boolean;
}

export interface AcousticBackend {
  readonly name: 'hmm' | 'mms';
  readonly model: string;
  readonly version: string;
  readonly traits: BackendTraits;
  /** Units for the normaliser's tokens, one per token, with the pronunciation route used. */
  pronounce(
    tokens: { text: string; wordIndex: number }[],
    lang: string,
    inputKind: InputKind,
    lexicon?: ReadonlyMap<string, string>,
  ): Promise<{ units: Unit[]; route: string; warnings: string[] }>;
  /**
   * Whether the back-end's lexicon has this written form (the normaliser keeps a hyphenated compound
   * whole when it does); absent for a back-end without a lexicon.
   */
  hasWord?(word: string, lang3: string): boolean;
  /** Spans for the units found in the window, in order; units not found are absent. */
  alignWindow(req: WindowRequest): Promise<UnitSpan[]>;
  /** Word-level spans only (no phones), quicker and sturdier: the first pass over long recordings. */
  segmentWindow?(req: WindowRequest): Promise<UnitSpan[]>;
  /**
   * The windows searched so far will not be searched again (long audio moves on to the next one): what
   * the back-end kept of them for another search over the same samples may go.
   */
  release?(): void;
  /** A track of the speaker for a long recording's first pass (absent: the pieces adapt on their own). */
  speakerTrack?(): SpeakerTrack | null;
  /** An independent recognition pass scored against the transcript (see docs/engines.md). */
  recognise(samples: Float32Array, units: Unit[]): Promise<Recognition>;
  /** The phone tier of a word from its placed spans, each phone with its label in the result's terms. */
  phoneTier(units: Unit[], spans: UnitSpan[]): PhoneTiming[];
}
