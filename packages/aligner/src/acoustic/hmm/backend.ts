// The `hmm` back-end: CMU Sphinx PTM acoustic models run by this package's decoder (decoder.ts: its own
// features, scores and finite-state-grammar search; soundswallower's only as the parity test's reference).
// Pronunciations come from the model's dictionary, else from eSpeak NG IPA mapped onto the model's phones.
import type { PhoneTiming } from '@tazamun/contracts/alignment-result';
import type {
  AcousticBackend,
  BackendTraits,
  PhoneSpan,
  Precision,
  Recognition,
  SpeakerTrack,
  Unit,
  UnitSpan,
  WindowRequest,
} from '../backend.ts';
import {
  DERAILED_RUN,
  LEADING_SKIPPED_MAX,
  SKIPPED_WORD_SECONDS,
  leadingUnplaced,
  skippedRuns,
  placeable,
} from '../backend.ts';
import { SAMPLE_RATE } from '../../audio/decode.ts';
import { estimateTransform } from './adapt/fmllr.ts';
import type { FeatureTransform } from './adapt/fmllr.ts';
import { SpeakerBlocks } from './adapt/speaker-track.ts';
import type { FrameStats } from './adapt/map.ts';
import { adaptedModelSpec } from './adapt/model-dir.ts';
import { useAdaptedDecoder } from './adapt/adapted-decoders.ts';
import { EngineError } from '../../errors.ts';
import { buildGrammar } from '../../align/grammar.ts';
import { ipaPhones } from '../../align/ipa-tier.ts';
import type { GrammarUnit } from '../../align/grammar.ts';
import { FRAME_RATE, emulatingPocketsphinx, loadHmmDecoder } from './decoder.ts';
import { UNIT_NATS } from './scoring/senones.ts';
import type { DecodeSettings, HmmDecoder, HmmSearch, HmmSegment, PhoneLoop } from './decoder.ts';
import { resolveHmmModel } from './models.ts';
import type { ModelFamily } from './models.ts';
import { ipaToModelPhones, phoneSet } from './phone-map.ts';
import type { PhoneSet } from './phone-map.ts';
import { PHONE_LOOP_METHOD, recognisePhones } from './recognise.ts';
import { scoreRecognition } from '../../metrics/recognition.ts';
import { analyseSpeech, untranscribedSpeech } from '../../metrics/speech.ts';
import { frameMeasures } from '../../audio/measure.ts';
import { resolveIpaLanguage, resolveLanguage } from '../../text/languages.ts';

/** The decoder for a language family's model (kept warm per model; a fresh one after an engine fault). */
export function loadDecoder(family: ModelFamily, band: 'full' | 'narrow' = 'full'): Promise<HmmDecoder> {
  return loadHmmDecoder(resolveHmmModel(family, band));
}

/**
 * The decoder of an adapted model's folder (adapt/model-dir.ts), for a transcript of `family`'s model:
 * an English-family model aligns English, Arabic and IPA, a French one French.
 */
export async function loadAdaptedDecoder(dir: string, family: ModelFamily): Promise<HmmDecoder> {
  const spec = adaptedModelSpec(dir);
  if (spec.family !== family)
    throw new EngineError(
      'unsupported_option',
      `the model in ${dir} was adapted from the ${spec.family === 'fr' ? 'French' : 'English'} model; this transcript's language is aligned with the ${family === 'fr' ? 'French' : 'English'} one`,
    );
  // a long-lived thread keeps a few adapted models loaded, not every one it has used
  useAdaptedDecoder(spec.id);
  return loadHmmDecoder(spec);
}

/**
 * The search behind the back-end: this package's decoder, or with TAZAMUN_DECODER=reference the
 * soundswallower build it replaced (the parity tests and `npm run bench -- --mode parity` compare them).
 */
export async function loadSearch(family: ModelFamily, band: 'full' | 'narrow' = 'full'): Promise<HmmSearch> {
  if (process.env.TAZAMUN_DECODER === 'reference') {
    const { loadReferenceDecoder } = await import('./reference/soundswallower.ts');
    return loadReferenceDecoder(resolveHmmModel(family, band));
  }
  return loadDecoder(family, band);
}

/**
 * The longest run of consecutive units that could be placed (they have a pronunciation) but were not.
 * With `trailing` false, units after the last placed one do not count: an open-ended window (the first
 * pass over long audio) leaves the text that runs past its end unplaced by design.
 */
export function longestUnplacedRun(
  units: readonly Unit[],
  spans: readonly UnitSpan[],
  trailing = true,
): number {
  const runs = skippedRuns(units, spans);
  if (!trailing) runs.pop();
  return runs.reduce((a, x) => Math.max(a, x), 0);
}

/**
 * A word the path holds longer than this (seconds) is a stall, as a skipped run is a derailment: a loud
 * burst (a shout, a knock on the microphone) fits no model, the frame's best state on it is a fricative of
 * the word before, and the paths that pass the burst in the words' own order are pruned; the path then
 * stays in that word, or leaves it for a later word that begins with a like sound.
 */
const STALLED_WORD = 5;

/** Whether a window's path derailed: a run of words skipped (longestUnplacedRun) or a word stalled. */
export function derailed(units: readonly Unit[], spans: readonly UnitSpan[], openEnd: boolean): boolean {
  return (
    longestUnplacedRun(units, spans, !openEnd) >= DERAILED_RUN ||
    spans.some((s) => s.end - s.start > STALLED_WORD)
  );
}

/** Sub-frame shifts (in samples at 16 kHz) whose alignments are averaged: 10 ms frames quantise boundaries. */
const SHIFTS: Record<Precision, number[]> = { standard: [0], high: [0, 80], ultra: [0, 40, 80, 120] };
/**
 * Search beams per precision (probabilities, pocketsphinx style). The word beam is as wide as the HMM
 * beam: this decoder's word exits cost little, and the narrower word beams pocketsphinx used (7e-29 at
 * standard, 1e-40 at high) lost the path through a skipped run of hoarse speech that the wider one keeps
 * (en-mfa-testdata joined: 47 against 87 words of the second piece; docs/benchmarks.md).
 */
const BEAMS: Record<Precision, { beam: number; wbeam: number; pbeam: number }> = {
  standard: { beam: 1e-48, wbeam: 1e-48, pbeam: 1e-48 },
  high: { beam: 1e-64, wbeam: 1e-64, pbeam: 1e-64 },
  ultra: { beam: 1e-80, wbeam: 1e-80, pbeam: 1e-80 },
};
/** pocketsphinx's, for TAZAMUN_EMULATE=pocketsphinx (decoder.ts). */
const SPHINX_BEAMS: typeof BEAMS = {
  standard: { beam: 1e-48, wbeam: 7e-29, pbeam: 1e-48 },
  high: { beam: 1e-64, wbeam: 1e-40, pbeam: 1e-64 },
  ultra: { beam: 1e-80, wbeam: 1e-50, pbeam: 1e-80 },
};
const settings = (p: Precision) => (emulatingPocketsphinx() ? SPHINX_BEAMS : BEAMS)[p];
/**
 * A forced search's beams (WindowRequest.forced): on hoarse or noisy speech, a path through every word
 * can trail the best partial path (silence over the speech) by 300 nats and more, which any precision's
 * beams prune; the network of a few words stays small whatever the beam.
 */
const FORCED_BEAMS = { beam: 1e-300, wbeam: 1e-300, pbeam: 1e-300 };

/**
 * The last search of a window whose path derailed at every precision's beams: over a second of a loud
 * burst, the frame's best state (a fricative) outscores silence and the garbage phones by a nat or two a
 * frame, which prunes the path through the burst in the words' order after 100 frames at standard's beam
 * (110 nats) and after 150 at high's. A burst that long needs about 280 nats; these beams keep 345.
 */
const WIDE_BEAMS = { beam: 1e-150, wbeam: 1e-150, pbeam: 1e-150 };

/**
 * The beam ladder of a derailed window, for the closed searches and the first pass's segmentation alike.
 * A run of words skipped after a search at standard's beams (hoarse, fast or disfluent speech: the
 * narrower beams kept a path that drifted off the speech) is searched again with high's. A path still
 * derailed, skipped or stalled, is searched once more with the wide beams (a loud burst). A stall alone
 * goes straight to the wide beams: high's prune a path through a burst too (ADR 0098), so that search
 * would be spent for nothing. Each rung keeps the speaker transform of the search it follows and is kept
 * when it places more words. Not the wide rung when emulating pocketsphinx, which has no such search.
 */
export async function widenWhileDerailed(
  req: WindowRequest,
  first: { spans: UnitSpan[]; beams: DecodeSettings },
  fromStandard: boolean,
  search: (beams: DecodeSettings) => Promise<UnitSpan[]>,
): Promise<{ spans: UnitSpan[]; beams: DecodeSettings }> {
  let kept = first;
  const rung = async (beams: DecodeSettings) => {
    const withTransform = { ...beams, transform: first.beams.transform };
    const spans = await search(withTransform);
    if (spans.length > kept.spans.length) kept = { spans, beams: withTransform };
  };
  if (fromStandard && longestUnplacedRun(req.units, kept.spans, !req.openEnd) >= DERAILED_RUN) {
    await rung(settings('high'));
  }
  if (!emulatingPocketsphinx() && derailed(req.units, kept.spans, req.openEnd)) await rung(WIDE_BEAMS);
  return kept;
}

/**
 * Speech frames (fillers left out) a window's first path needs before the features are adapted to its
 * speaker (8 s; a full matrix per stream from 15 s, adapt/fmllr.ts): fewer estimate a transform that helps
 * little and costs a second search. Measured: en-mfa-testdata (25 s recordings, another room, a speaker
 * with a cold) 75.2 -> 49.0 ms mean; timit-dev's speakers joined into 25-33 s files 19.67 -> 19.54 ms;
 * one fr-librivox-mfa recording adapted, the set 18.4 -> 18.0 ms (docs/benchmarks.md).
 */
const ADAPT_MIN_FRAMES = 800;

/**
 * Garbage path weights: entering the phone loop between two words, and skipping a word. pocketsphinx divides
 * transition log-probabilities by 2^10 before adding them to acoustic scores, so 1 - 1e-15 (skip 1e-15, -34.5
 * nats) costs about as much as a few frames of mismatch; anything beyond the word beam (-65 nats at standard,
 * -92 at high) is never taken at all.
 */
export const GARBAGE = {
  enter: 1e-4,
  skip: 1 - 1e-15,
  /** natural-log weight of each phone of the loop */
  loopLogWeight: -40,
  /**
   * The phone loop between words is built but off. On timit-dev with 10 % of the words deleted from the
   * transcripts it brings the remaining words from +32.9 to +4.8 ms of the clean run (flat from -25 to
   * -60), but on en-mfa-testdata it loses agreement (59.5 -> 92.3 ms) and on unvowelled Arabic it costs
   * 3 ms, and it doubles the search time (docs/benchmarks.md).
   */
  phoneLoop: false,
  /**
   * Instead, a window is searched again with the loop (between all words and at both ends of the text)
   * when the first search shows the marks of speech the transcript leaves out (suspectUnits), and the
   * second search is kept when it places every word the first one placed. timit-dev with 10 % of words
   * deleted: +32.9 -> +6.9 ms; the clean sets within 0.6 ms of before, en-mfa-testdata +2.5 ms.
   */
  adaptiveLoop: true,
  /**
   * Natural-log weight of each phone of the loops before the text's first word and after its last in a
   * further loop search (searchWindow). Speech the transcript leaves out before its first word (an
   * introduction, another sentence) drew the first words into it at the between-words weight: timit-dev's
   * sentences each after another one placed their words 324 ms off on average, the Arabic synthetic
   * set's 645 ms; with this search 24.7 and 117 ms (ADR 0107). -40/-30/-20/-15 were measured too.
   */
  endsLogWeight: -25,
  /**
   * Natural-log weight of each phone of the loop before the text in the first windows of a long recording
   * (segmentWindow's headSearch; ADR 0107, 0108). The loop must take a window of speech the text leaves out
   * whole (an introduction of a minute or more), and leave the text's own words to the text.
   * - `own`: text most of whose words are in the model's dictionary. Measured on timit-dev's sentences
   *   after 16-97 s of other speech (both English models): placed at -8 to -12, not at -14 (97 s before
   *   it: the loop no longer takes a window of it whole).
   * - `other`: text spelled with phones the model stands in for (Arabic, IPA, other languages), which fits
   *   it worse. The Arabic synthetic set after 16-65 s: placed at -12 to -14, not at -10 (16 s: the loop
   *   took the text's own words too, and the whole window with them). At -13 the loop still took the
   *   introduction and 30 words of the text after 21 s, or after 22 s without diacritics; so -13 only
   *   says whether a window holds none of the text, and
   * - `otherPlace` places the text in one that does (every Arabic case above, vowelled or not).
   */
  headLogWeight: { own: -10, other: -13, otherPlace: -20 },
  /**
   * Natural-log weight of each phone of the loop between words in a long recording's first-pass window
   * searched with WindowRequest.wordLoop (segmentPass: a window whose path ran ahead of the speech). A dev
   * set joined with sentences missing from its text: at -40 timit-dev's words were placed 447 ms off on
   * average, at -30 43.6 ms (an earlier form of the search, docs/benchmarks.md).
   */
  wordLoopLogWeight: -30,
};

/** Words a head-loop search of a first window must place to be kept (segmentWindow). */
const HEAD_MIN_WORDS = 5;
/**
 * A head-loop search that left the text's first words out is made again from this many seconds before the
 * first word it placed, and this many more per word left out (headSearch).
 */
const HEAD_SEARCH_MARGIN = 2;

/**
 * The head loop's weights for a window's text (GARBAGE.headLogWeight): the one that says whether the window
 * holds none of it, and the one that places it; mostly the model's own words, or not.
 */
function headWeights(units: readonly Unit[]): { take: number; place: number } {
  let own = 0;
  let all = 0;
  for (const u of units)
    if (placeable(u)) {
      all++;
      if (u.source === 'model_dictionary') own++;
    }
  const w = GARBAGE.headLogWeight;
  return own * 2 >= all ? { take: w.own, place: w.own } : { take: w.other, place: w.otherPlace };
}

/**
 * Seconds of a window's speech before its first placed word and after its last (metrics/speech.ts) from
 * which the window is searched again with the loop, as for suspect words. That speech is either speech the
 * transcript leaves out, or the transcript's own speech with the words drawn into speech before it.
 */
const OUTSIDE_SPEECH = 0.5;

/** Seconds per phone above which a placed word holds audio that is not its own (wordConfidence uses 0.2). */
const STRETCH_PER_PHONE = 0.15;
/** ...for words at least this long: a short word drawn out is common in careful speech. */
const STRETCH_MIN_WORD = 0.4;
/**
 * A word whose decoder probability falls this far below the window's median was forced onto audio that
 * fits it badly. Relative to the window, so cross-language routes (uniformly low) do not trip it.
 */
const LOW_P_BELOW_MEDIAN = 0.1;

/**
 * Words the search stretched over audio that is not theirs, or forced onto audio that fits them far worse
 * than the rest of the window fits its words: what a word missing from the transcript leaves behind.
 */
export function suspectUnits(spans: UnitSpan[]): Set<number> {
  const out = new Set<number>();
  const ps = spans.map((s) => s.confidence).sort((a, b) => a - b);
  const median = ps.length ? ps[Math.floor(ps.length / 2)]! : 1;
  for (const s of spans) {
    const dur = s.end - s.start;
    const phones = Math.max(1, s.phones.length);
    if (dur >= STRETCH_MIN_WORD && dur / phones > STRETCH_PER_PHONE) out.add(s.unit);
    else if (s.confidence < median - LOW_P_BELOW_MEDIAN) out.add(s.unit);
  }
  return out;
}

/** Seconds of the window's speech before its first placed word and after its last. */
export function speechOutside(req: WindowRequest, spans: UnitSpan[]): number {
  const { levels, tilts } = frameMeasures(req.samples);
  const speech = analyseSpeech(levels, tilts);
  const placed = spans.map((s) => ({ start: s.start - req.offset, end: s.end - req.offset }));
  const u = untranscribedSpeech(speech, placed);
  return u.seconds - u.innerSeconds;
}

/** The units a search can place: those with a pronunciation or a lattice. */
const placeableCount = (units: Unit[]): number => units.filter(placeable).length;

const meanConfidence = (spans: UnitSpan[]): number =>
  spans.reduce((a, s) => a + s.confidence, 0) / Math.max(1, spans.length);

/** One grammar search of a window (HmmBackend.alignOnce); every field has the plain search's value. */
interface SearchOptions {
  /** samples of silence put before the window (a sub-frame shift, SHIFTS); 0 */
  shift?: number;
  /** 1: states and phones; 0: words alone */
  level?: 0 | 1;
  /** a garbage loop between words (GARBAGE.phoneLoop) */
  loop?: boolean;
  /** filled from the path's frames (speaker adaptation) */
  stats?: FrameStats;
  /** the loops at the text's ends at this weight rather than the loop's between words */
  endsLogWeight?: number;
  /** a loop before the first unit alone, at this weight (an open start: GARBAGE.headLogWeight) */
  headLogWeight?: number;
  /** the loop between words at this weight rather than GARBAGE.loopLogWeight */
  loopLogWeight?: number;
}

export interface PronunciationSources {
  espeakIpa: (tokens: string[], lang: string) => Promise<string[][]>;
  arabicLattice: (token: string) => string[][];
}

export class HmmBackend implements AcousticBackend {
  readonly name = 'hmm' as const;
  readonly version = 'tazamun-hmm-1';
  readonly traits: BackendTraits = {
    ditherZeros: true,
    refineEdges: true,
    wholeFile: false,
    calibrated: true,
    pcm16: true,
  };

  /**
   * Model adaptation (adapt/corpus.ts): the frames of each closed window's kept path, searched under the
   * model's own features (no speaker transform), are added here.
   */
  collecting: FrameStats | null = null;

  constructor(
    readonly decoder: HmmSearch,
    private readonly g2p: PronunciationSources,
  ) {}

  get model(): string {
    return this.decoder.spec.id;
  }

  /** The model family, when the decoder is this package's (the pieces of a long file go to threads). */
  get family(): ModelFamily | null {
    return 'phoneLoop' in this.decoder ? this.decoder.spec.family : null;
  }

  /** The model's phones as the IPA mapping sees them (an adapted model's own phones included). */
  get phoneSet(): PhoneSet {
    return phoneSet(this.decoder.spec.family, this.decoder.spec.extraPhones);
  }

  hasWord(word: string, lang3: string): boolean {
    return this.sameLanguage(lang3) && this.decoder.lookup(word.toLowerCase()).length > 0;
  }

  private sameLanguage(lang3: string): boolean {
    return (
      (this.decoder.spec.family === 'en' && lang3 === 'eng') ||
      (this.decoder.spec.family === 'fr' && lang3 === 'fra')
    );
  }

  async pronounce(
    tokens: { text: string; wordIndex: number }[],
    lang: string,
    inputKind: 'orthography' | 'ipa',
    lexicon: ReadonlyMap<string, string> = new Map(),
  ) {
    const info = inputKind === 'ipa' ? resolveIpaLanguage(lang) : resolveLanguage(lang);
    const family = this.phoneSet;
    const warnings: string[] = [];
    const routes = new Set<string>();
    const units: Unit[] = tokens.map((t, i) => ({
      tokenIndex: i,
      wordIndex: t.wordIndex,
      text: t.text,
      prons: [],
    }));
    const needIpa: number[] = [];
    for (const u of units) {
      const own = inputKind === 'ipa' ? undefined : lexicon.get(u.text.normalize('NFC').toLowerCase());
      if (inputKind === 'ipa') {
        u.prons = [ipaToModelPhones(u.text, family)].filter((p) => p.length > 0);
        u.ipa = [u.text];
        u.source = 'ipa_input';
        routes.add('ipa-input');
      } else if (own !== undefined && ipaToModelPhones(own, family).length) {
        u.prons = [ipaToModelPhones(own, family)];
        u.ipa = [own];
        u.source = 'user_lexicon';
        routes.add('user-lexicon');
      } else if (this.sameLanguage(info.iso3) && this.decoder.lookup(u.text.toLowerCase()).length) {
        u.prons = this.decoder
          .lookup(u.text.toLowerCase())
          .filter((p) => p.every((ph) => this.decoder.phones.has(ph)));
        u.source = 'model_dictionary';
        routes.add('dictionary');
      } else if (info.routes[0] === 'arabic-rules' && /[\u0600-\u06FF]/.test(u.text)) {
        // Letter rules with optional short vowels: the search picks the vowels unvowelled text leaves out.
        u.latticeIpa = this.g2p.arabicLattice(u.text);
        u.lattice = u.latticeIpa.map((slot) =>
          slot.map((alt) => (alt === '' ? [] : ipaToModelPhones(alt, family))),
        );
        u.source = 'rules';
        routes.add('arabic-rules');
      } else {
        needIpa.push(u.tokenIndex);
      }
    }
    if (needIpa.length && info.espeakVoice) {
      const ipa = await this.g2p.espeakIpa(
        needIpa.map((i) => units[i]!.text),
        info.iso3,
      );
      needIpa.forEach((ui, k) => {
        const source = (ipa[k] ?? []).join(' ');
        const mapped = ipaToModelPhones(source, family);
        if (mapped.length) {
          units[ui]!.prons = [mapped];
          units[ui]!.ipa = [source];
          units[ui]!.source = 'espeak';
        }
      });
      routes.add('espeak-ipa');
    }
    for (const u of units)
      if (u.prons.length === 0 && !u.lattice?.length) warnings.push(`no pronunciation for "${u.text}"`);
    return { units, route: [...routes].join('+') || 'none', warnings };
  }

  release(): void {
    this.decoder.releaseScores?.();
  }

  async alignWindow(req: WindowRequest): Promise<UnitSpan[]> {
    const spans = await this.placeWindow(req);
    if (req.onRecognition && this.decoder.phoneLoop) {
      // the loop goodness of pronunciation used: the window's frames are scored already
      const loop = await this.decoder.phoneLoop(req.samples);
      req.onRecognition(scoreRecognition(req.units, loop.phones, PHONE_LOOP_METHOD));
    }
    return spans;
  }

  private async placeWindow(req: WindowRequest): Promise<UnitSpan[]> {
    if (req.forced) {
      const spans = await this.searchWindow(req, FORCED_BEAMS);
      this.decoder.configure(FORCED_BEAMS);
      return spans;
    }
    const base = settings(req.precision);
    // the first search's path gives the speaker-adaptation statistics (not when emulating pocketsphinx)
    // (a window shorter than the speech adaptation needs collects nothing)
    const adaptable =
      !emulatingPocketsphinx() && req.samples.length >= (ADAPT_MIN_FRAMES / FRAME_RATE) * 16000;
    const stats = adaptable && !req.adaptation ? this.decoder.adaptationStats?.() : undefined;
    let chosen: DecodeSettings = base;
    let spans: UnitSpan[];
    if (req.adaptation && !emulatingPocketsphinx()) {
      // A piece of a long recording: the transform fitted to the first pass's path over it (SpeakerBlocks);
      // searched without it too when it places fewer words than the first pass did, the better kept.
      chosen = { ...base, transform: req.adaptation as FeatureTransform };
      spans = await this.searchWindow(req, chosen);
      if (spans.length < (req.expected ?? 0)) {
        const plain = await this.searchWindow(req, base);
        if (plain.length > spans.length) {
          spans = plain;
          chosen = base;
        }
      }
    } else spans = await this.searchWindow(req, base, stats);
    // Speaker adaptation: with enough speech on the path, a feature transform fitted to it (adapt/fmllr.ts)
    // and the window searched again; kept when it places as many words.
    if (stats && stats.frames >= ADAPT_MIN_FRAMES) {
      const adapted = { ...base, transform: estimateTransform(stats) };
      const again = await this.searchWindow(req, adapted);
      if (again.length >= spans.length) {
        spans = again;
        chosen = adapted;
      }
    }
    // Derailment at `standard` (a run of words skipped) goes up to high's beams; only at `standard`:
    // at high the wider search kept more words on en-mfa-testdata (163 against 160) but placed them
    // worse (94.0 against 76.7 ms mean), so high and ultra keep their own search.
    ({ spans, beams: chosen } = await widenWhileDerailed(
      req,
      { spans, beams: chosen },
      req.precision === 'standard',
      (beams) => this.searchWindow(req, beams),
    ));
    if (this.collecting && !req.openEnd && spans.length > 0) {
      this.decoder.configure({ ...chosen, transform: undefined });
      await this.alignOnce(req, { loop: false, stats: this.collecting });
    }
    // the recognition pass reads the frames as the kept search did
    this.decoder.configure(chosen);
    return spans;
  }

  private async searchWindow(
    req: WindowRequest,
    beams: DecodeSettings,
    /** filled from the first search's path */
    stats?: FrameStats,
  ): Promise<UnitSpan[]> {
    this.decoder.configure(beams);
    const runs: UnitSpan[][] = [];
    let loop = GARBAGE.phoneLoop;
    for (const shift of SHIFTS[req.precision]) {
      let spans = await this.alignOnce(req, {
        shift,
        loop,
        stats: runs.length === 0 ? stats : undefined,
        // (the loop that takes speech the text leaves out before its first word, as in a long recording's
        // first window; align/reseat.ts)
        headLogWeight: req.leadingLoop ? headWeights(req.units).place : undefined,
      });
      if (
        runs.length === 0 &&
        spans &&
        req.garbage &&
        !req.forced &&
        !req.leadingLoop &&
        !loop &&
        GARBAGE.adaptiveLoop
      ) {
        // Speech the transcript leaves out is pulled into the words around it, and speech before the
        // first word or after the last (an introduction the text leaves out, or the text's own speech
        // with its first words drawn into the speech before it) lies outside them. Either is searched
        // again with the loop: suspect words at the loop's own weight at the text's ends and at the
        // cheaper GARBAGE.endsLogWeight, of which the search that places more words is kept, the cheaper
        // on a tie (at the cheaper weight alone the loop also takes real first words that fit poorly: a
        // hoarse "alright thanks" before a loud burst, derailment.test.ts). The search at the loop's own
        // weight is made only when the cheaper one leaves words out: it cannot place more than all.
        // Speech outside the words alone: the cheaper search, kept when it places as many words and fits
        // them better. Words drawn into speech before their own fit better where they belong (timit-dev and
        // the Arabic synthetic set, 15 of 15 such windows); with speech after the text the words stay where
        // they were and fit a little worse (83 of 83). One word alone is not judged by its fit: another
        // word's audio fits it better now and then. A search that loses words gave real speech to the
        // loop: the one before stays.
        // Only for a whole recording searched once: the pieces and other closed searches of a long one are
        // placed by the first pass's open windows, and their searches stay as they were (the cheaper
        // search on the pieces' suspect words cost 6-10 % more CPU on 40 TIMIT sentences joined nine
        // times, 1,005 s, and moved no word; on en-mfa-testdata joined twice a stretch searched again
        // took the wide beams).
        const whole = req.wholeRecording === true;
        if (suspectUnits(spans).size > 0) {
          const first = spans;
          let ends = whole
            ? await this.alignOnce(req, { shift, loop: true, endsLogWeight: GARBAGE.endsLogWeight })
            : null;
          // A path through a stretch of speech the loop takes whole (10 s of read speech before the
          // text) falls out of the standard beams, and the search places a word or two: at the wide
          // beams it places the text after that stretch (the Austen demo less its first two lines: 41 of
          // 41 words where they are said, against 14 of them in the speech before at the standard beams).
          // Only for a search that lost more than half of the words the first one placed: the wide beams
          // cost several standard searches (ADR 0107).
          if (ends && ends.length * 2 < first.length) {
            this.decoder.configure({ ...WIDE_BEAMS, transform: beams.transform });
            const wide = await this.alignOnce(req, {
              shift,
              loop: true,
              endsLogWeight: GARBAGE.endsLogWeight,
            });
            this.decoder.configure(beams);
            if (wide && wide.length > ends.length) ends = wide;
          }
          if (!ends || ends.length < placeableCount(req.units)) {
            const again = await this.alignOnce(req, { shift, loop: true });
            if (again && again.length >= spans.length) {
              loop = true;
              spans = again;
            }
          }
          if (ends && ends.length >= spans.length && ends.length >= first.length) {
            loop = true;
            spans = ends;
          }
        } else if (whole && spans.length >= 2 && speechOutside(req, spans) >= OUTSIDE_SPEECH) {
          const ends = await this.alignOnce(req, { shift, loop: true, endsLogWeight: GARBAGE.endsLogWeight });
          if (ends && ends.length >= spans.length && meanConfidence(ends) > meanConfidence(spans)) {
            loop = true;
            spans = ends;
          }
        }
      }
      if (spans) runs.push(spans);
      // The loop search costs two to four plain ones on long windows: a window that needed it is not
      // searched again at the shifted offsets (measured: +6.0 ms with them, +6.9 without, half the time).
      if (loop && !GARBAGE.phoneLoop) break;
    }
    if (runs.length === 0) return [];
    return averageRuns(runs);
  }

  /**
   * Word spans straight from the grammar search, without the state alignment (no phones): cheaper, and
   * it never fails on a window whose text runs past its end.
   */
  async segmentWindow(req: WindowRequest): Promise<UnitSpan[]> {
    // Word-level segmentation at standard beams whatever the precision (the pieces then honour it): the
    // first pass at high's beams placed en-mfa-testdata's words worse (122.8 against 76.7 ms mean at high).
    // A derailed path climbs the same ladder as a window's search (widenWhileDerailed).
    // A first pass's window of a long recording records each search's path for the speaker track (the
    // recording of the search kept is the track's to keep in part).
    // The loop between words (segmentPass, a window whose path ran ahead of its speech): one search at
    // the standard beams, kept as it comes; the pass judges it by the next window.
    if (req.wordLoop) {
      this.decoder.configure(settings('standard'));
      const spans = await this.alignOnce(req, {
        level: 0,
        loop: true,
        loopLogWeight: GARBAGE.wordLoopLogWeight,
      });
      return spans ?? [];
    }
    const track = req.listen instanceof SpeakerBlocks && !emulatingPocketsphinx() ? req.listen : null;
    const heard = new Map<UnitSpan[], FrameStats>();
    const search = async (beams: DecodeSettings) => {
      this.decoder.configure(beams);
      const recording = track?.recorder(req.offset);
      const spans = (await this.alignOnce(req, { level: 0, stats: recording })) ?? [];
      if (recording) heard.set(spans, recording);
      return spans;
    };
    const first = settings('standard');
    let { spans } = await widenWhileDerailed(req, { spans: await search(first), beams: first }, true, search);
    // The text's first window still derailed, or the windows before it held no word of the text: speech
    // before the text (an introduction) may have drawn its first words in. Searched again with a loop
    // before the first word (headSearch): the loop taking the whole window says the text is not in it
    // yet; else the text is placed (at a dearer loop for text the model fits worse, headWeights). After
    // an introduction that path is kept whatever it places; else when it places enough words from the
    // text's first few, does not derail after them, and fits its words better.
    if (req.openStart && req.garbage && (req.afterIntro || derailed(req.units, spans, req.openEnd))) {
      const w = headWeights(req.units);
      const taken = await this.headSearch(req, first, track, heard, w.take);
      const head =
        !taken || (taken.spans.length === 0 && req.openEnd) || w.place === w.take
          ? taken
          : await this.headSearch(req, first, track, heard, w.place);
      if (head && head.spans.length === 0 && req.openEnd) spans = [];
      else if (
        head &&
        (req.afterIntro ||
          (head.spans.length >= HEAD_MIN_WORDS &&
            head.skipped <= LEADING_SKIPPED_MAX &&
            !head.derailed &&
            meanConfidence(head.spans) > meanConfidence(spans)))
      )
        spans = head.spans;
    }
    const kept = heard.get(spans);
    if (track && kept) track.heard(kept);
    return spans;
  }

  /**
   * The search with a loop before the text's first unit (GARBAGE.headLogWeight). When the loop also took
   * the text's first words (the path starts with a later one), the window is searched again from a little
   * before the first word placed: a loop that cheap takes real words at the edge of the speech it takes.
   * Null when no path was found.
   */
  private async headSearch(
    req: WindowRequest,
    beams: DecodeSettings,
    track: SpeakerBlocks | null,
    heard: Map<UnitSpan[], FrameStats>,
    weight: number,
  ): Promise<{ spans: UnitSpan[]; skipped: number; derailed: boolean } | null> {
    this.decoder.configure(beams);
    const once = async (r: WindowRequest) => {
      const recording = track?.recorder(r.offset);
      const spans = await this.alignOnce(r, { level: 0, stats: recording, headLogWeight: weight });
      if (spans && recording) heard.set(spans, recording);
      return spans;
    };
    let spans = await once(req);
    if (!spans) return null;
    let skipped = leadingUnplaced(req.units, spans);
    if (spans.length > 0 && skipped > 0) {
      const from = spans[0]!.start - req.offset - HEAD_SEARCH_MARGIN - skipped * SKIPPED_WORD_SECONDS;
      if (from >= HEAD_SEARCH_MARGIN) {
        const cut = Math.round(from * SAMPLE_RATE);
        const again = await once({
          ...req,
          samples: req.samples.subarray(cut),
          offset: req.offset + cut / SAMPLE_RATE,
        });
        if (again && again.length > 0) {
          spans = again;
          skipped = leadingUnplaced(req.units, spans);
        }
      }
    }
    const first = spans[0]?.unit ?? 0;
    const after = spans.map((s) => ({ ...s, unit: s.unit - first }));
    return { spans, skipped, derailed: derailed(req.units.slice(first), after, req.openEnd) };
  }

  speakerTrack(): SpeakerTrack | null {
    const decoder = this.decoder;
    if (!decoder.adaptationStats || emulatingPocketsphinx()) return null;
    return new SpeakerBlocks(() => decoder.adaptationStats!(), FRAME_RATE, ADAPT_MIN_FRAMES);
  }

  private async alignOnce(req: WindowRequest, opts: SearchOptions = {}): Promise<UnitSpan[] | null> {
    const { shift = 0, level = 1, stats, endsLogWeight, headLogWeight } = opts;
    const { loop: garbageLoop = GARBAGE.phoneLoop, loopLogWeight = GARBAGE.loopLogWeight } = opts;
    const usable = req.units
      .map((u, i) => ({ u, i }))
      .filter(({ u }) => u.prons.length > 0 || (u.lattice?.length ?? 0) > 0);
    // Whole-word pronunciations are dictionary words (P_...). A lattice is spelled with single-phone
    // words tagged with the unit's position mod 3 (Q<tag>_...), so a change of tag marks the next unit.
    const tags = usable.map((_, k) => k % 3);
    const items = usable.map(({ u }, k) => {
      if (u.lattice?.length) {
        const slots = u.lattice.map((slot) =>
          slot.map((phones) => phones.map((p) => this.decoder.wordFor([p], `Q${tags[k]}`))),
        );
        return { slots, names: null as string[] | null };
      }
      const names = u.prons.map((p) => this.decoder.wordFor(p));
      return { alternatives: names, names };
    });
    let samples = req.samples;
    if (shift > 0) {
      samples = new Float32Array(req.samples.length + shift);
      samples.set(req.samples, shift);
    }
    // First the strict path (skipping a word is all but forbidden); when no complete path survives the
    // beams, words are let go more easily so the rest still aligns and the misfits come back not_found.
    const skips = req.forced
      ? [undefined]
      : req.garbage
        ? [GARBAGE.skip, 1 - 1e-4, 1 - 1e-2]
        : [undefined, 1 - 1e-4, 1 - 1e-2];
    let result: HmmSegment | null = null;
    for (const skip of skips) {
      const gunits: GrammarUnit[] = items.map((it) =>
        it.names ? { alternatives: it.names, skippable: skip } : { slots: it.slots, skippable: skip },
      );
      const loop = req.garbage && !req.forced && garbageLoop;
      const head = req.garbage && !req.forced && headLogWeight !== undefined;
      const fsg = buildGrammar(gunits, {
        garbage: loop || head ? this.garbageNames() : [],
        garbageWeight: loop ? GARBAGE.enter : 0,
        garbageLogWeight: loop ? loopLogWeight : undefined,
        // only the adaptive search: the always-on loop was measured without the ends
        garbageEnds: loop && !GARBAGE.phoneLoop,
        endsLogWeight,
        headLogWeight: head ? headLogWeight : undefined,
        openEnd: req.openEnd,
        headSkipMax: req.headSkipMax,
      });
      result = await this.decoder.run(samples, fsg, level, stats);
      if (result) break;
    }
    if (!result) return null;
    // goodness of pronunciation needs the free phone loop over the same frames (shared scores)
    const loop = level === 1 && this.decoder.phoneLoop ? await this.decoder.phoneLoop(samples) : null;
    // over the frames of the unit's own phones (a filler may sit between two phones of a letter lattice),
    // as the path gave them (its costs are over exactly those frames)
    const nFrames = Math.round(result.d * FRAME_RATE);
    const off = req.offset - shift / 16000;
    const spans: UnitSpan[] = [];
    const segs = (result.w ?? []).filter((seg) => seg.t.startsWith('P_') || seg.t.startsWith('Q'));
    // The decoder names the grammar unit of every word it took (HmmSegment.u), whatever the path skipped
    // before it. The reference decoder (the parity test's) names words only: a word is then the next unit
    // that has its name, and a change of lattice tag (the unit's position mod 3) starts the next unit,
    // which is ambiguous when the path skipped a multiple of three units, or a word spelled like the one
    // it placed.
    const named = segs.every((seg) => seg.u !== undefined);
    let k = 0;
    for (let si = 0; si < segs.length; si++) {
      const seg = segs[si]!;
      const name = seg.t.replace(/\(\d+\)$/, '');
      const word = name.startsWith('P_');
      const tag = Number(name[1]);
      if (named) k = seg.u!;
      else if (word) while (k < items.length && !items[k]!.names?.includes(name)) k++;
      else while (k < items.length && (items[k]!.names !== null || tags[k] !== tag)) k++;
      if (k >= items.length) break;
      if (word) {
        spans.push({
          ...toSpan(usable[k]!.i, seg, off),
          ...gopOf(seg.w?.length ? seg.w : [seg], seg, seg, loop, nFrames),
        });
        k++;
        continue;
      }
      // a lattice unit is the run of its phones
      const sameUnit = (next: HmmSegment): boolean =>
        named ? next.u === k && next.t.startsWith('Q') : next.t.startsWith(`Q${tag}_`);
      const group = [seg];
      while (si + 1 < segs.length && sameUnit(segs[si + 1]!)) group.push(segs[++si]!);
      spans.push({
        ...latticeSpan(usable[k]!.i, group, off),
        ...gopOf(group, group[0]!, group[group.length - 1]!, loop, nFrames),
      });
      k++;
    }
    return spans;
  }

  private garbageNames(): string[] {
    const skip = new Set(['SIL', '+NSN+', '+SPN+']);
    return [...this.decoder.phones].filter((p) => !skip.has(p)).map((p) => this.decoder.wordFor([p], 'G'));
  }

  async recognise(samples: Float32Array, units: Unit[]): Promise<Recognition> {
    return recognisePhones(this.decoder, samples, units);
  }

  /** Model phones shown in the IPA the pronunciation was made from (align/ipa-tier.ts). */
  phoneTier(units: Unit[], spans: UnitSpan[]): PhoneTiming[] {
    return ipaPhones(units, spans, this.phoneSet);
  }
}

/**
 * A unit's goodness of pronunciation over its segments' frames: the forced path's cost against the free
 * phone loop's (`loop`, null: none), with the frames' spread and whether the unit runs to the window's
 * edges. (A function of its own, not a closure made by each search: the JIT compiles it once.)
 */
function gopOf(
  segs: HmmSegment[],
  first: HmmSegment,
  last: HmmSegment,
  loop: PhoneLoop | null,
  nFrames: number,
): Pick<UnitSpan, 'gop' | 'frames' | 'spread' | 'phoneGop' | 'worstGop' | 'minFrames' | 'open'> {
  const out: Pick<UnitSpan, 'spread' | 'open'> = {};
  if (first.spread && last.spread) out.spread = [first.spread[0], last.spread[1]];
  if (first.f && last.f) out.open = [first.f[0] <= 0, last.f[1] >= nFrames];
  if (!loop || segs.some((g) => g.ascr === undefined)) return out;
  let frames = 0;
  let forced = 0;
  let free = 0;
  let minFrames = Infinity;
  const perPhone: number[] = [];
  for (const g of segs) {
    const [sf, ef] = (g.f ?? [Math.round(g.b * FRAME_RATE), Math.round((g.b + g.d) * FRAME_RATE)]).map((x) =>
      Math.min(loop.nFrames, x),
    ) as [number, number];
    const loopCost = loop.cum[ef]! - loop.cum[sf]!;
    frames += ef - sf;
    forced += g.ascr!;
    free += loopCost;
    minFrames = Math.min(minFrames, ef - sf);
    if (ef > sf) perPhone.push(((g.ascr! - loopCost) * UNIT_NATS) / (ef - sf));
  }
  if (frames <= 0) return out;
  return {
    gop: round(((forced - free) * UNIT_NATS) / frames),
    frames,
    phoneGop: round(perPhone.reduce((a, x) => a + x, 0) / perPhone.length),
    worstGop: round(Math.max(...perPhone)),
    minFrames,
    ...out,
  };
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

function toSpan(unit: number, seg: HmmSegment, off: number): UnitSpan {
  const phones: PhoneSpan[] = (seg.w ?? []).map((p) => ({
    phone: p.t,
    start: round(p.b + off),
    end: round(p.b + p.d + off),
    confidence: p.p,
  }));
  return { unit, start: round(seg.b + off), end: round(seg.b + seg.d + off), confidence: seg.p, phones };
}

function latticeSpan(unit: number, group: HmmSegment[], off: number): UnitSpan {
  const phones: PhoneSpan[] = group.map((g) => {
    const inner = g.w?.[0];
    return {
      phone: inner?.t ?? g.t.replace(/^Q\d_/, ''),
      start: round(g.b + off),
      end: round(g.b + g.d + off),
      confidence: g.p,
    };
  });
  const first = group[0]!;
  const last = group[group.length - 1]!;
  const conf = group.reduce((a, g) => a + g.p, 0) / group.length;
  return { unit, start: round(first.b + off), end: round(last.b + last.d + off), confidence: conf, phones };
}

/**
 * Each word (and phone) of the first run at the mean of the runs' placements, rounded as one run's are.
 * (Loops rather than a closure per word and field: the closures were compiled again and again, and a
 * long recording's first windows spent most of their compiling here.)
 */
function averageRuns(runs: UnitSpan[][]): UnitSpan[] {
  // each run's first span of each unit
  const byUnit = runs.map((r) => {
    const m = new Map<number, UnitSpan>();
    for (const s of r) if (!m.has(s.unit)) m.set(s.unit, s);
    return m;
  });
  const out: UnitSpan[] = [];
  for (const span of runs[0]!) {
    const same: UnitSpan[] = [];
    for (const m of byUnit) {
      const s = m.get(span.unit);
      if (s) same.push(s);
    }
    const phones: PhoneSpan[] = [];
    for (let pi = 0; pi < span.phones.length; pi++) {
      const phone = span.phones[pi]!.phone;
      let n = 0;
      let start = 0;
      let end = 0;
      let confidence = 0;
      for (const s of same) {
        const q = s.phones[pi];
        if (!q || q.phone !== phone) continue;
        n++;
        start += q.start;
        end += q.end;
        confidence += q.confidence;
      }
      phones.push({ phone, start: round(start / n), end: round(end / n), confidence: round(confidence / n) });
    }
    let start = 0;
    let end = 0;
    let confidence = 0;
    for (const s of same) {
      start += s.start;
      end += s.end;
      confidence += s.confidence;
    }
    const k = same.length;
    const avg: UnitSpan = {
      unit: span.unit,
      start: round(start / k),
      end: round(end / k),
      confidence: round(confidence / k),
      phones,
    };
    let g = 0;
    let gop = 0;
    let phoneGop = 0;
    let worstGop = 0;
    let minFrames = Infinity;
    for (const s of same) {
      if (s.gop === undefined) continue;
      g++;
      gop += s.gop;
      phoneGop += s.phoneGop ?? s.gop;
      worstGop += s.worstGop ?? s.gop;
      minFrames = Math.min(minFrames, s.minFrames ?? Infinity);
    }
    if (g > 0) {
      avg.gop = round(gop / g);
      avg.frames = span.frames;
      avg.phoneGop = round(phoneGop / g);
      avg.worstGop = round(worstGop / g);
      avg.minFrames = minFrames;
    }
    if (span.spread) avg.spread = span.spread;
    if (span.open) avg.open = span.open;
    out.push(avg);
  }
  return out;
}
