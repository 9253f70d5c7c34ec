// The HMM decoder: a CMU Sphinx acoustic model, its dictionary, and the search that places a grammar's
// words, phones and states in the audio. Every step from samples to states is this package's own code
// (frontend/, scoring/, search/); the model files are read from their published formats (model/). One
// decoder per model stays loaded for the life of the process or worker thread.
//
// A window's front end and Gaussian scores are computed once and kept while the same samples are searched
// again (another grammar, wider beams, the garbage loop, the recognition pass): the searches themselves
// cost little next to the scoring.
//
// Every failure inside a search becomes an EngineError with code engine_fault; the caller retires the
// decoder (retireDecoders) and retries once on a fresh one, as for any engine fault.
import { readFileSync, unlinkSync } from 'node:fs';
import type { HmmModelSpec } from './models.ts';
import type { Fsg } from '../../align/grammar.ts';
import { wordLoop } from '../../align/grammar.ts';
import { EngineError, toEngineError } from '../../errors.ts';
import { TMAT_FORBIDDEN, loadAcousticModel } from './model/acoustic-model.ts';
import type { AcousticModel } from './model/acoustic-model.ts';
import { WPOS, nearestPhone, phoneSenones } from './model/mdef.ts';
import { PronunciationDictionary, readFillers } from './model/dictionary.ts';
import { FrontEnd } from './frontend/mfcc.ts';
import { computeFeatures } from './frontend/features.ts';
import type { Features } from './frontend/features.ts';
import { AdaptationStats, applyTransform, renormalised } from './adapt/fmllr.ts';
import type { FrameStats } from './adapt/map.ts';
import type { FeatureTransform } from './adapt/fmllr.ts';
import { gaussianKernel, topNPerFrame } from './scoring/gaussians.ts';
import type { GaussianKernel, GaussianTopN } from './scoring/gaussians.ts';
import { SenoneCosts, topNAndCosts } from './scoring/senones.ts';
import { sphinxGaussians } from './scoring/sphinx-gaussians.ts';
import type { SphinxDensities } from './scoring/sphinx-gaussians.ts';
import { DEFAULT_CONTEXTS, SPHINX_CONTEXTS, buildNetwork, netHmm } from './search/network.ts';
import type { GraphArc, Network, WordDef, WordGraph } from './search/network.ts';
import { viterbi } from './search/viterbi.ts';
import { boundaryPosteriors } from './search/posteriors.ts';
import { stateAlign } from './search/state-align.ts';
import type { AlignWord, AlignedSegment } from './search/state-align.ts';
import type { SearchResult } from './search/viterbi.ts';

export interface HmmSegment {
  /** word (or phone) label */
  t: string;
  /** begin, seconds */
  b: number;
  /** duration, seconds */
  d: number;
  /** a posterior-like fit of the audio to the label, in (0, 1] */
  p: number;
  /**
   * acoustic cost of the segment's best state path (units, transitions included), under the window's
   * per-frame normaliser: comparable with PhoneLoop.cum over the same frames (absent from the reference)
   */
  ascr?: number;
  /**
   * how uncertain the segment's start and end are: the mean distance (frames) of the boundary from where
   * the path put it, under the local posterior of its position (absent from the reference)
   */
  spread?: [number, number];
  /**
   * the frames [first, end) the best path gave the segment (its ascr is over exactly these; the times
   * above may sit between frames); absent from the reference
   */
  f?: [number, number];
  /**
   * the grammar unit whose arc the word took (FsgArc.unit): which of the transcript's units it is, even
   * when the path skipped units before it (absent from the reference and on fillers)
   */
  u?: number;
  w?: HmmSegment[];
}

export interface DecodeSettings {
  /** log-domain beams as probabilities (pocketsphinx style) */
  beam: number;
  wbeam: number;
  pbeam: number;
  /** a speaker transform applied to the features before scoring (adapt/fmllr.ts) */
  transform?: FeatureTransform;
}

export const FRAME_RATE = 100;

/** What the HMM back-end needs of a decoder (this one, or the soundswallower reference). */
export interface HmmSearch {
  readonly spec: HmmModelSpec;
  readonly phones: ReadonlySet<string>;
  lookup(word: string): string[][];
  wordFor(phones: string[], prefix?: string): string;
  configure(s: DecodeSettings): void;
  run(samples: Float32Array, g: Fsg, level?: 0 | 1, stats?: FrameStats): Promise<HmmSegment | null>;
  /** empty speaker-adaptation statistics for run() to fill (absent from the reference decoder) */
  adaptationStats?(): AdaptationStats;
  /** forgets the windows scored so far, keeping their buffers for the next ones */
  releaseScores?(): void;
  recognise(samples: Float32Array, g: Fsg): Promise<string>;
  /** the free phone loop over a window, sharing its scores (absent from the reference decoder) */
  phoneLoop?(samples: Float32Array): Promise<PhoneLoop>;
}

/**
 * Scale of the frame log-likelihoods in the boundary posteriors (search/posteriors.ts). Measured on the
 * dev sets with boundaries at their posterior mean: 0.05, 0.1, 0.2 give timit-dev 19.7, 18.8, 18.5 ms
 * and ar-synthetic 23.5, 23.5, 24.6 ms (docs/benchmarks.md); 0.15 sits between.
 */
const POSTERIOR_SCALE = 0.15;

/** Search weights of the Sphinx decoders' defaults: language weight, insertion penalties, fillers. */
const LANGUAGE_WEIGHT = 6.5;
const WORD_INSERTION = 0.65;
const SILENCE_PROB = 0.005;
/**
 * The silence filler's probability at a state between two words of the transcript (pocketsphinx: 0.005,
 * SILENCE_PROB, everywhere). Read speech pauses between words far more often than the decoders' prior
 * for recognition says, and a pause priced too high is given to the neighbouring words' edges. Measured
 * at standard (docs/benchmarks.md, Issue 26): 0.05 / 0.1 / 0.2 / 0.5 give timit-dev 18.3 / 18.2 / 18.1 /
 * 18.2 ms (18.6 at 0.005) and unvowelled ar-synthetic 38.1 / 38.5 / 39.8 / 40.0 (39.0); inside a word
 * spelled letter by letter (the Arabic lattice) silence keeps SILENCE_PROB, or words broke apart.
 */
const PAUSE_PROB = 0.1;
const FILLER_PROB = 1e-8;

const LN_BASE = Math.log(1.0001);

/** A log probability (natural log) as the decoders quantise a grammar weight: base 1.0001, then 10 bits. */
export function logToUnits(lnp: number, weight = 1): number {
  const base = Math.trunc(Math.trunc(lnp / LN_BASE) * weight);
  return Math.floor(base / 1024);
}

/**
 * TAZAMUN_EMULATE=pocketsphinx: search as the soundswallower decoder did (its phone contexts, its
 * beams, context-dependent garbage phones, boundaries on the frame grid, its Gaussian arithmetic and
 * senone normaliser, its search rules, its state alignment behind the level-1 segments; ADR 0075), so
 * that the parity tests can hold this decoder to it ("the old settings"). Read at every search.
 */
export function emulatingPocketsphinx(): boolean {
  return process.env.TAZAMUN_EMULATE === 'pocketsphinx';
}

function contextRules() {
  return emulatingPocketsphinx() ? SPHINX_CONTEXTS : DEFAULT_CONTEXTS;
}

/** One decoder per model, per process (worker threads each load their own). */
const decoders = new Map<string, Promise<HmmDecoder>>();
/** Generations of decoders in this process: a fault retires them all and the next job starts a new one. */
let generations = 0;
let retired = true;

export function loadHmmDecoder(spec: HmmModelSpec): Promise<HmmDecoder> {
  let d = decoders.get(spec.id);
  if (!d) {
    if (retired) {
      generations++;
      retired = false;
    }
    d = HmmDecoder.load(spec);
    d.catch(() => decoders.delete(spec.id));
    decoders.set(spec.id, d);
  }
  return d;
}

/** Drops one model's decoder (an intermediate model of an adaptation, a deleted model). */
export function unloadDecoder(id: string): void {
  decoders.delete(id);
}

/** Drops every loaded decoder: the next loadHmmDecoder() reads the model again. */
export function retireDecoders(): void {
  decoders.clear();
  retired = true;
}

/** How many times this process has loaded decoders (tests check that a fault led to a fresh one). */
export function moduleGenerations(): number {
  return generations;
}

/**
 * The model's context-independent phones, read from its mdef, in the order its dictionary first uses them
 * (the recognition loops list them in this order), then the others (silence and fillers).
 */
function phoneOrder(model: AcousticModel, dict: Uint8Array): Set<string> {
  const names = new Set(model.mdef.ciPhones);
  const out = new Set<string>();
  const text = Buffer.from(dict.buffer, dict.byteOffset, Math.min(dict.length, 200_000)).toString('utf8');
  for (const line of text.split('\n', 3000)) {
    if (line.startsWith(';;')) continue;
    for (const p of line.split(/\s+/).slice(1)) if (names.has(p)) out.add(p);
  }
  for (const p of model.mdef.ciPhones) out.add(p);
  return out;
}

/** The model's context-independent phones (the names its mdef defines). */
export function modelPhones(spec: HmmModelSpec): Set<string> {
  return new Set(loadAcousticModel({ dir: spec.hmm, featParams: spec.featParams }).mdef.ciPhones);
}

interface ScoredWindow {
  samples: Float32Array;
  key: string;
  /** the feature transform the window was scored under (its id), if any */
  transform?: string;
  /** the features scored (the transform applied, when there is one) */
  feats: Features;
  /**
   * the top-N densities; their log-likelihoods (topn.ll) only for a window scored for adaptation
   * statistics, else NO_LL: a search's senone costs read dens, only the statistics read the log-likelihoods
   */
  topn: GaussianTopN;
  /** density costs under one normaliser per frame (the best codebook of all): every search shares them */
  dens: Uint8Array;
  nFrames: number;
  /** the arrays topn and dens are views of, handed to a later window once this one is dropped */
  buffers: ScoreBuffers;
  /** the free phone loop over the window, once asked for */
  loop?: Promise<PhoneLoop>;
  /** TAZAMUN_EMULATE=pocketsphinx: the densities as pocketsphinx scores them (SenoneCosts) */
  sphinx?: Promise<SphinxDensities>;
}

/**
 * The free phone loop's best path over a window: every model phone in any order, context-free, no
 * language model. Its cumulative acoustic cost is the denominator of goodness of pronunciation.
 */
export interface PhoneLoop {
  /** the recognised phones (model labels, fillers left out) */
  phones: string[];
  /** cum[t] = acoustic cost (units) of the loop's path over frames [0, t); length nFrames + 1 */
  cum: Float64Array;
  nFrames: number;
}

/** A window's identity by content: its length and a hash of every sample's bits. */
function fingerprint(samples: Float32Array): string {
  return `${samples.length}:${fnv1a(new Uint32Array(samples.buffer, samples.byteOffset, samples.length))}`;
}

/** FNV-1a over 32-bit words (its own function: the loop stays compiled whatever its caller does) */
function fnv1a(words: Uint32Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i]!, 0x01000193);
  return h >>> 0;
}

/** Scored windows kept per decoder: the alignment's and the recognition pass's over the same audio. */
const SCORED_KEPT = 3;

/**
 * A window's score arrays, room for `frames` frames: its top-N's densities and density costs, and the
 * top-N's log-likelihoods once a window that keeps them has used the buffers (two thirds of the bytes).
 */
interface ScoreBuffers {
  cw: Uint8Array;
  dens: Uint8Array;
  ll: Float32Array | null;
  frames: number;
}

/** The log-likelihoods of a window that does not keep them: none (reading one is a fault, not a value). */
const NO_LL = new Float32Array(0);

/**
 * Score buffers are made for a whole number of these frames (5 s): windows of a long recording (45 s
 * first-pass windows, 15-40 s pieces) then fit in the buffers of the windows before them.
 */
const BUFFER_FRAMES = 500;
/**
 * Buffers of dropped windows kept for the next ones: a window's own scores and its speaker-adapted ones
 * (beyond those, the smallest go to the collector).
 */
const SPARE_KEPT = 2;

export class HmmDecoder implements HmmSearch {
  private readonly names = new Map<string, number[]>();
  private readonly known = new Map<string, string>();
  private settings: DecodeSettings = { beam: 1e-48, wbeam: 7e-29, pbeam: 1e-48 };
  private scored: ScoredWindow[] = [];
  /** score buffers of dropped windows, reused by the next windows that fit in them */
  private spare: ScoreBuffers[] = [];
  /** where the windows that do not keep their log-likelihoods have them computed (one at a time) */
  private scratch: Float32Array | null = null;
  /** searches and phone loops under way: buffers are reused only when a single one is (scoring) */
  private busy = 0;
  private readonly fillerWords: { word: string; phone: number; cost: number }[];
  /** the silence filler's cost between two words of a transcript (PAUSE_PROB) */
  private readonly pauseCost = -logToUnits(Math.log(PAUSE_PROB), LANGUAGE_WEIGHT);
  private readonly frontEnd: FrontEnd;

  private constructor(
    readonly spec: HmmModelSpec,
    readonly model: AcousticModel,
    private readonly dict: PronunciationDictionary,
    readonly phones: ReadonlySet<string>,
    noiseDict: string,
    private readonly kernel: GaussianKernel,
  ) {
    this.frontEnd = new FrontEnd(model.frontEnd);
    this.fillerWords = readFillers(noiseDict)
      .filter((f) => model.mdef.ciIndex.has(f.phone))
      .map((f) => ({
        word: f.word,
        phone: model.mdef.ciIndex.get(f.phone)!,
        cost: -logToUnits(Math.log(f.word === '<sil>' ? SILENCE_PROB : FILLER_PROB), LANGUAGE_WEIGHT),
      }));
  }

  static async load(spec: HmmModelSpec): Promise<HmmDecoder> {
    try {
      const model = loadAcousticModel({ dir: spec.hmm, featParams: spec.featParams });
      if (spec.extraPhones?.length) {
        // an adapted model's own phones take their parent's place as a neighbour's context (mdef.ts)
        const { mdef } = model;
        const contextOf = Int32Array.from(mdef.ciPhones, (_, i) => i);
        for (const e of spec.extraPhones) {
          const own = mdef.ciIndex.get(e.phone);
          const parent = mdef.ciIndex.get(e.from);
          if (own !== undefined && parent !== undefined) contextOf[own] = parent;
        }
        mdef.contextOf = contextOf;
      }
      const dictBytes = readFileSync(spec.dict);
      const noise = spec.noiseDict ? readFileSync(spec.noiseDict, 'utf8') : '<sil> SIL\n';
      const kernel = await gaussianKernel(model);
      return new HmmDecoder(
        spec,
        model,
        new PronunciationDictionary(dictBytes),
        phoneOrder(model, dictBytes),
        noise,
        kernel,
      );
    } catch (err) {
      if (err instanceof EngineError) throw err;
      throw toEngineError(err, `could not load the acoustic model ${spec.id} from ${spec.hmm}`);
    }
  }

  /** Which Gaussian kernel scores the frames ('native', 'onnx' or the JavaScript fallback 'js'). */
  get kernelName(): string {
    return this.kernel.name;
  }

  /** All pronunciations the model's dictionary has for a word (word, word(2), ...). */
  lookup(word: string): string[][] {
    return this.dict.lookup(word);
  }

  /** Registers a pronunciation under a grammar-safe name built from its phones; returns the name. */
  wordFor(phones: string[], prefix = 'P'): string {
    const name = `${prefix}_` + phones.map((p) => p.replace(/[^A-Za-z0-9]/g, 'x')).join('_');
    if (!this.known.has(name)) {
      const unknown = phones.filter((p) => !this.phones.has(p));
      if (unknown.length)
        throw new EngineError(
          'engine_fault',
          `the pronunciation ${phones.join(' ')} uses phones the model ${this.spec.id} does not have: ${unknown.join(' ')}`,
        );
      this.names.set(
        name,
        phones.map((p) => this.model.mdef.ciIndex.get(p)!),
      );
      this.known.set(name, phones.join(' '));
    }
    return name;
  }

  configure(s: DecodeSettings): void {
    this.settings = s;
  }

  /**
   * The features and Gaussian scores of a window, computed once: the same samples searched again (wider
   * beams, the garbage loop, the recognition pass over the same stretch) reuse them.
   */
  private async score(samples: Float32Array, keepLl = false): Promise<ScoredWindow> {
    const tf = this.settings.transform;
    const usable = (w: ScoredWindow) => w.transform === tf?.id && (w.topn.ll !== NO_LL || !keepLl);
    const same = this.scored.find((w) => w.samples === samples && usable(w));
    if (same) return same;
    const key = fingerprint(samples);
    const equal = this.scored.find((w) => w.key === key && usable(w));
    if (equal) return equal;
    let feats = this.scored.find((w) => w.key === key && !w.transform)?.feats;
    // scored already without its log-likelihoods, now asked with them: scored again (its features kept),
    // replacing it
    const without = this.scored.findIndex((w) => w.key === key && w.transform === tf?.id);
    if (without >= 0) {
      const [old] = this.scored.splice(without, 1);
      if (this.busy <= 1) this.spareBuffers(old!.buffers);
    }
    if (!feats) {
      const logMel = this.frontEnd.logMel(withDither(samples));
      const cep = this.frontEnd.cepstra(logMel);
      feats = computeFeatures(cep, this.model.frontEnd, this.model.streamLengths);
    }
    if (tf) feats = applyTransform(feats, renormalised(tf, feats));
    // the window this one replaces gives up its buffers first (a long recording's windows take turns in
    // the same few arrays instead of leaving the allocator one new set per window)
    const dropped = this.scored.length >= SCORED_KEPT ? this.scored.pop()! : null;
    if (dropped && this.busy <= 1) this.spareBuffers(dropped.buffers);
    const buffers = this.takeBuffers(feats.nFrames, keepLl);
    const need = buffers.frames * topNPerFrame(this.model);
    const ll = keepLl ? (buffers.ll ??= new Float32Array(need)) : this.takeScratch(need);
    let topn: GaussianTopN;
    let dens: Uint8Array;
    try {
      ({ topn, dens } = await topNAndCosts(this.kernel, feats, { ll, cw: buffers.cw }, buffers.dens));
    } finally {
      if (!keepLl) this.keepScratch(ll);
    }
    // (the object the kernel made, emptied in place: a copy would have another shape, and the searches
    // that read it are compiled for one)
    if (!keepLl) topn.ll = NO_LL;
    const w: ScoredWindow = {
      samples,
      key,
      transform: tf?.id,
      feats,
      topn,
      dens,
      nFrames: feats.nFrames,
      buffers,
    };
    this.scored = [w, ...this.scored].slice(0, SCORED_KEPT);
    return w;
  }

  /**
   * Forgets the windows scored so far (the caller will not search them again): their buffers go to the
   * spare ones, so a long recording's windows take turns in two sets (a window's own scores and its
   * speaker-adapted ones) instead of keeping the last SCORED_KEPT windows' as well.
   */
  releaseScores(): void {
    if (this.busy > 0) return;
    for (const w of this.scored) this.spareBuffers(w.buffers);
    this.scored = [];
  }

  /**
   * Buffers for a window of `frames` frames: a dropped window's when one is long enough, one with
   * log-likelihood room first when the window keeps them and one without otherwise. A window that does not
   * keep them and gets such room passes it to the scratch (or lets it go), so that the spare buffers do
   * not all come to hold it.
   */
  private takeBuffers(frames: number, keepLl: boolean): ScoreBuffers {
    const fit = (b: ScoreBuffers) => b.frames >= frames;
    let i = this.spare.findIndex((b) => fit(b) && (b.ll !== null) === keepLl);
    if (i < 0) i = this.spare.findIndex(fit);
    if (i >= 0) {
      const b = this.spare.splice(i, 1)[0]!;
      if (!keepLl && b.ll) {
        this.keepScratch(b.ll);
        b.ll = null;
      }
      return b;
    }
    const room = Math.ceil(Math.max(1, frames) / BUFFER_FRAMES) * BUFFER_FRAMES;
    const n = room * topNPerFrame(this.model);
    return { ll: null, cw: new Uint8Array(n), dens: new Uint8Array(n), frames: room };
  }

  /** The scratch for a window's log-likelihoods, or a new one while it is in use or too short. */
  private takeScratch(need: number): Float32Array {
    const s = this.scratch;
    if (!s || s.length < need) return new Float32Array(need);
    this.scratch = null;
    return s;
  }

  /** Keeps the larger of `a` and the scratch for the next window (a window scored meanwhile made its own). */
  private keepScratch(a: Float32Array): void {
    if (!this.scratch || this.scratch.length < a.length) this.scratch = a;
  }

  private spareBuffers(b: ScoreBuffers): void {
    // the largest kept: a long recording's windows all fit in them
    this.spare = [b, ...this.spare].sort((x, y) => y.frames - x.frames).slice(0, SPARE_KEPT);
  }

  /** Runs `work` counted as under way (score() reuses a dropped window's buffers only when alone). */
  private async counted<T>(work: () => Promise<T>): Promise<T> {
    this.busy++;
    try {
      return await work();
    } finally {
      this.busy--;
    }
  }

  /** The grammar as a word graph of the model's phones, with the decoders' weights and fillers. */
  private wordGraph(g: Fsg): WordGraph {
    const words: WordDef[] = [];
    const index = new Map<string, number>();
    const wordIndex = (name: string): number => {
      let i = index.get(name);
      if (i !== undefined) return i;
      const phones = this.names.get(name);
      if (!phones) throw new EngineError('engine_fault', `the grammar uses the unknown word ${name}`);
      i = words.length;
      // the garbage and recognition loops' phones are context-free, except when emulating pocketsphinx
      const free = /^[GR]_/.test(name) && !emulatingPocketsphinx();
      words.push({ name, phones, kind: free ? 'free' : 'word' });
      index.set(name, i);
      return i;
    };
    // Every arc made here, by a loop into an array grown by push: the network build is compiled for one
    // shape of arc and one kind of array (map() gave packed arrays for some grammars and holey ones for
    // others, and each change of kind, or an arc without `unit`, deoptimised the build).
    const arcs: GraphArc[] = [];
    for (const a of g.arcs)
      arcs.push({
        from: a.from,
        to: a.to,
        word: a.word === null ? -1 : wordIndex(a.word),
        cost: -(a.logWeight !== undefined
          ? Math.floor(Math.max(-(2 ** 30), Math.round(a.logWeight / LN_BASE)) / 1024)
          : logToUnits(Math.log(a.prob))),
        unit: a.unit,
      });
    // a pause between two words of the transcript costs less than silence elsewhere (inside a spelled
    // word, in the recognition loop), except when emulating pocketsphinx
    const edges = g.wordEdges && !emulatingPocketsphinx() ? new Set(g.wordEdges) : null;
    for (const f of this.fillerWords) {
      const w = words.length;
      words.push({ name: f.word, phones: [f.phone], kind: 'filler' });
      const pause = f.word === '<sil>' && edges !== null;
      for (let s = 0; s < g.states; s++)
        arcs.push({
          from: s,
          to: s,
          word: w,
          cost: pause && edges.has(s) ? this.pauseCost : f.cost,
          unit: undefined,
        });
    }
    return {
      states: g.states,
      start: g.start,
      final: g.final,
      words,
      arcs,
      wordPenalty: -logToUnits(Math.log(WORD_INSERTION), LANGUAGE_WEIGHT),
    };
  }

  private beams() {
    const w = (p: number) => -logToUnits(Math.log(p));
    return { beam: w(this.settings.beam), pbeam: w(this.settings.pbeam), wbeam: w(this.settings.wbeam) };
  }

  /** Searches a grammar over a window; the network, its senone costs and the best path. */
  private async search(
    samples: Float32Array,
    g: Fsg,
    /** the path's frames go to adaptation statistics (the window keeps its log-likelihoods) */
    forStats = false,
  ): Promise<{ net: Network; costs: SenoneCosts; path: SearchResult | null; window: ScoredWindow }> {
    try {
      injectedFault();
      const w = await this.score(samples, forStats);
      const sphinx = emulatingPocketsphinx();
      const net = buildNetwork(this.model, this.wordGraph(g), contextRules());
      if (sphinx) w.sphinx ??= sphinxGaussians(this.model).then((k) => k.densities(w.feats));
      const costs = new SenoneCosts(
        this.model,
        w.topn,
        w.dens,
        net.senones,
        sphinx ? await w.sphinx : undefined,
      );
      const path = viterbi(this.model, net, costs, w.nFrames, this.beams(), { sphinx });
      return { net, costs, path, window: w };
    } catch (err) {
      if (err instanceof EngineError && err.input) throw err;
      // whatever state a failed search left is not trusted: the next job loads fresh decoders
      retireDecoders();
      if (err instanceof EngineError) throw err;
      throw toEngineError(err, `decoding (model ${this.spec.id})`);
    }
  }

  /**
   * Runs the grammar over the audio: word segments with their phones (level 1) or without (level 0), and
   * fillers (<sil>, [NOISE]) between them. Null when no path reaches the grammar's end within the beams.
   */
  async run(
    samples: Float32Array,
    g: Fsg,
    level: 0 | 1 = 1,
    /** the path's frames are added to these (speaker adaptation, model adaptation) */
    stats?: FrameStats,
  ): Promise<HmmSegment | null> {
    return this.counted(async () => {
      const { net, costs, path, window } = await this.search(samples, g, stats !== undefined);
      if (!path) return null;
      if (level === 1 && emulatingPocketsphinx()) return this.sphinxSegments(net, path, window);
      if (stats) this.collect(stats, net, costs, path, window);
      return segments(this.model, net, costs, path, path.nFrames, level, this.model.mdef.ciPhones);
    });
  }

  /**
   * TAZAMUN_EMULATE=pocketsphinx: the segments as soundswallower reports them at level 1, from
   * pocketsphinx's state alignment of the path's words (search/state-align.ts): the words where the grammar
   * search put them, the phones and every probability from the second pass, printed to 3 decimals. Null
   * where that alignment fails.
   */
  private async sphinxSegments(
    net: Network,
    path: SearchResult,
    w: ScoredWindow,
  ): Promise<HmmSegment | null> {
    const words: (AlignWord & { name: string })[] = [];
    let lastArc = -1;
    for (const p of path.phones) {
      const h = netHmm(net, p.hmm);
      if (h.pos === 0 || h.arc !== lastArc) {
        const def = net.graph.words[net.graph.arcs[h.arc]!.word]!;
        words.push({ name: def.name, phones: def.phones, start: p.start, end: p.end });
      } else words[words.length - 1]!.end = p.end;
      lastArc = h.arc;
    }
    const densities = await w.sphinx!;
    const allSenones = Int32Array.from(this.model.mdef.senoneCi, (_, s) => s);
    const costs = new SenoneCosts(this.model, w.topn, w.dens, allSenones, densities);
    const aligned = stateAlign(this.model, words, costs, path.lastActive ?? [], w.nFrames);
    if (!aligned) return null;
    // soundswallower prints times and probabilities with 3 decimals (decoder_result_json)
    const r3 = (x: number) => Number(x.toFixed(3));
    const seg = (s: AlignedSegment, t: string): HmmSegment => ({
      t,
      b: r3(s.start / FRAME_RATE),
      d: r3(s.duration / FRAME_RATE),
      p: r3(Math.pow(1.0001, s.score)),
    });
    return {
      t: '',
      b: 0,
      d: w.nFrames / FRAME_RATE,
      p: 1,
      w: aligned.map((a, i) => ({
        ...seg(a, words[i]!.name),
        w: a.phones.map((ph) => seg(ph, this.model.mdef.ciPhones[ph.ci]!)),
      })),
    };
  }

  /** A new, empty set of adaptation statistics for this decoder's model. */
  adaptationStats(): AdaptationStats {
    return new AdaptationStats(this.model);
  }

  /**
   * Model adaptation from hand-placed phones (adapt/corpus.ts): each word's phones (model labels, times
   * in seconds from the window's start) in their triphones (neighbours within the word, silence at its
   * edges), and the stretches given as silence, their frames added to `stats` in the states of each
   * phone's best path over its own frames; no search. Returns the frames added (before their weight).
   */
  async collectPlaced(
    samples: Float32Array,
    words: readonly { phone: string; start: number; end: number }[][],
    silences: readonly { start: number; end: number }[],
    stats: FrameStats,
    gamma = 1,
  ): Promise<number> {
    this.configure({ ...this.settings, transform: undefined });
    const w = await this.score(samples, true);
    const { mdef } = this.model;
    const segs: { pid: number; from: number; to: number }[] = [];
    const frame = (s: number) => Math.max(0, Math.min(w.nFrames, Math.round(s * FRAME_RATE)));
    for (const word of words) {
      const ci = word.map((p) => mdef.ciIndex.get(p.phone));
      if (ci.some((c) => c === undefined)) continue;
      const n = ci.length;
      word.forEach((p, k) => {
        const wpos = n === 1 ? WPOS.single : k === 0 ? WPOS.begin : k === n - 1 ? WPOS.end : WPOS.internal;
        const lc = k > 0 ? ci[k - 1]! : mdef.sil;
        const rc = k < n - 1 ? ci[k + 1]! : mdef.sil;
        segs.push({ pid: nearestPhone(mdef, ci[k]!, lc, rc, wpos), from: frame(p.start), to: frame(p.end) });
      });
    }
    for (const s of silences) segs.push({ pid: mdef.sil, from: frame(s.start), to: frame(s.end) });
    let frames = 0;
    for (const s of segs) {
      if (s.to <= s.from) continue;
      const senones = Int32Array.from(phoneSenones(mdef, s.pid));
      const costs = new SenoneCosts(this.model, w.topn, w.dens, senones);
      const states = new Int8Array(s.to - s.from);
      const local = Int32Array.from(senones, (_, i) => i);
      phonePathCosts(this.model, mdef.phoneTmat[s.pid]!, local, costs, s.from, s.to - 1, states);
      for (let t = s.from; t < s.to; t++) stats.add(w.feats, w.topn, t, senones[states[t - s.from]!]!, gamma);
      frames += s.to - s.from;
    }
    return frames;
  }

  /** Adds the speech frames of a path, each in its state's senone, to the adaptation statistics. */
  private collect(
    stats: FrameStats,
    net: Network,
    costs: SenoneCosts,
    path: SearchResult,
    w: ScoredWindow,
  ): void {
    for (const p of path.phones) {
      const h = netHmm(net, p.hmm);
      // silences and noises say little about the speaker and much about the room's noise floor
      // (a model's re-estimation takes them: a silence model left behind while the speech models learn
      // the corpus's noise floor lets words spread into the pauses)
      if (!stats.fillers && net.graph.words[net.graph.arcs[h.arc]!.word]!.kind === 'filler') continue;
      const states = new Int8Array(p.end - p.start + 1);
      phonePathCosts(this.model, h.tmat, h.senones, costs, p.start, p.end, states);
      for (let t = p.start; t <= p.end; t++)
        stats.add(w.feats, w.topn, t, net.senones[h.senones[states[t - p.start]!]!]!);
    }
  }

  /** The best path's words, space-separated (fillers left out). */
  async recognise(samples: Float32Array, g: Fsg): Promise<string> {
    const { net, path } = await this.counted(() => this.search(samples, g));
    if (!path) return '';
    const words: string[] = [];
    let lastArc = -1;
    for (const p of path.phones) {
      const h = netHmm(net, p.hmm);
      const w = net.graph.words[net.graph.arcs[h.arc]!.word]!;
      if ((h.pos === 0 || h.arc !== lastArc) && w.kind !== 'filler') words.push(w.name);
      lastArc = h.arc;
    }
    return words.join(' ');
  }

  /** The free phone loop over a window (computed once per window; the scores are shared). */
  phoneLoop(samples: Float32Array): Promise<PhoneLoop> {
    return this.counted(async () => {
      const w = await this.score(samples);
      w.loop ??= this.runLoop(w);
      return w.loop;
    });
  }

  private async runLoop(w: ScoredWindow): Promise<PhoneLoop> {
    const skip = new Set(['SIL', '+NSN+', '+SPN+', '+NOISE+', '+SPEECH+']);
    const names = [...this.phones].filter((p) => !skip.has(p)).map((p) => this.wordFor([p], 'R'));
    const { net, costs, path } = await this.search(w.samples, wordLoop(names));
    const cum = new Float64Array(w.nFrames + 1);
    const phones: string[] = [];
    if (!path) return { phones, cum, nFrames: w.nFrames };
    for (const p of path.phones) {
      const h = netHmm(net, p.hmm);
      const perFrame = phonePathCosts(this.model, h.tmat, h.senones, costs, p.start, p.end);
      for (let t = p.start; t <= p.end; t++) cum[t + 1] = cum[t]! + perFrame[t - p.start]!;
      const word = net.graph.words[net.graph.arcs[h.arc]!.word]!;
      if (word.kind !== 'filler') phones.push(this.model.mdef.ciPhones[h.ci]!);
    }
    return { phones, cum, nFrames: w.nFrames };
  }
}

/** The best path as the decoders' segments: words with their phones, times in seconds. */
function segments(
  model: AcousticModel,
  net: Network,
  costs: SenoneCosts,
  path: SearchResult,
  nFrames: number,
  level: 0 | 1,
  phoneNames: readonly string[],
): HmmSegment {
  // a phone's fit is its path's cost above each frame's best active senone (as pocketsphinx reports it)
  const best = path.bestActive;
  const words: HmmSegment[] = [];
  let cur: { arc: number; seg: HmmSegment; logp: number } | null = null;
  // each phone start's posterior (level 1): its spread, and with POSTERIOR_EDGES its mean as the boundary
  const post =
    level === 1 ? boundaryPosteriors(model, net, costs, path.phones, nFrames, POSTERIOR_SCALE) : null;
  const spreadAt = (i: number): number =>
    post && i > 0 && i < post.length ? Math.round(post[i]!.sd * 1000) / 1000 : 0;
  // boundaries at their posterior mean (between frames), except when emulating pocketsphinx
  const posteriorEdges = post && !emulatingPocketsphinx();
  const edge = (i: number): number =>
    i >= path.phones.length ? nFrames : posteriorEdges && i > 0 ? post[i]!.mean : path.phones[i]!.start;
  for (let pi = 0; pi < path.phones.length; pi++) {
    const p = path.phones[pi]!;
    const h = netHmm(net, p.hmm);
    const perFrame = phonePathCosts(model, h.tmat, h.senones, costs, p.start, p.end);
    const ascr = perFrame.reduce((a, b) => a + b, 0);
    let excess = ascr;
    for (let t = p.start; t <= p.end; t++) excess -= best[t]!;
    // pocketsphinx reads the state alignment's scores (shifted units) as if they were base-1.0001 logs
    const logp = -excess * LN_BASE;
    // exact times: the back-end rounds a word's and its phones' edges alike
    const b = edge(pi) / FRAME_RATE;
    const phoneSeg: HmmSegment = {
      t: '',
      b,
      d: edge(pi + 1) / FRAME_RATE - b,
      p: Math.exp(logp),
      ascr,
      f: [p.start, p.end + 1],
    };
    if (!cur || h.pos === 0 || h.arc !== cur.arc) {
      const arc = net.graph.arcs[h.arc]!;
      const w = net.graph.words[arc.word]!;
      cur = {
        arc: h.arc,
        seg: {
          t: w.name,
          ...(arc.unit !== undefined && { u: arc.unit }),
          b: phoneSeg.b,
          d: 0,
          p: 1,
          ascr: 0,
          spread: [spreadAt(pi), 0],
          f: [p.start, p.end + 1],
          w: [],
        },
        logp: 0,
      };
      words.push(cur.seg);
    }
    cur.seg.spread![1] = spreadAt(pi + 1);
    cur.seg.f![1] = p.end + 1;
    phoneSeg.t = phoneNames[h.ci]!;
    cur.seg.d = edge(pi + 1) / FRAME_RATE - cur.seg.b;
    cur.logp += logp;
    cur.seg.p = Math.exp(cur.logp);
    cur.seg.ascr! += ascr;
    if (level === 1) cur.seg.w!.push(phoneSeg);
  }
  if (level === 0) for (const w of words) delete w.w;
  return { t: '', b: 0, d: nFrames / FRAME_RATE, p: 1, w: words };
}

/**
 * The per-frame costs (units) of a phone's best state path over frames [start, end]: emission plus the
 * transition taken into the frame's state, and the exit on the last frame. A phone-sized Viterbi with
 * back-pointers.
 */
function phonePathCosts(
  m: AcousticModel,
  tmat: number,
  senones: Int32Array,
  costs: SenoneCosts,
  start: number,
  end: number,
  /** filled with the state of each frame, when given (length end - start + 1) */
  states?: Int8Array,
): Float64Array {
  const n = senones.length;
  const nTo = m.nTmatTo;
  const len = end - start + 1;
  const tp = (from: number, to: number) => {
    const c = m.tmat[(tmat * n + from) * nTo + to]!;
    return c >= TMAT_FORBIDDEN ? Infinity : c;
  };
  const score = new Float64Array(len * n).fill(Infinity);
  const back = new Int8Array(len * n).fill(-1);
  score[0] = costs.at(start, senones[0]!);
  for (let i = 1; i < len; i++) {
    const t = start + i;
    for (let j = 0; j < n; j++) {
      let b = score[(i - 1) * n + j]! + tp(j, j);
      let from = j;
      for (let k = Math.max(0, j - 2); k < j; k++) {
        const c = score[(i - 1) * n + k]! + tp(k, j);
        if (c < b) {
          b = c;
          from = k;
        }
      }
      score[i * n + j] = b + costs.at(t, senones[j]!);
      back[i * n + j] = from;
    }
  }
  let j = n - 1;
  let bestExit = Infinity;
  for (let k = 0; k < n; k++) {
    const c = score[(len - 1) * n + k]! + tp(k, n);
    if (c < bestExit) {
      bestExit = c;
      j = k;
    }
  }
  const out = new Float64Array(len);
  if (!Number.isFinite(bestExit)) {
    // no exit within the model's transitions (a segment shorter than its states): emissions alone
    for (let i = 0; i < len; i++) {
      out[i] = costs.at(start + i, senones[Math.min(i, n - 1)]!);
      if (states) states[i] = Math.min(i, n - 1);
    }
    return out;
  }
  out[len - 1] = bestExit - score[(len - 1) * n + j]!;
  for (let i = len - 1; i >= 0; i--) {
    out[i]! += i === 0 ? score[j]! : score[i * n + j]! - score[(i - 1) * n + back[i * n + j]!]!;
    if (states) states[i] = j;
    if (i > 0) j = back[i * n + j]!;
  }
  return out;
}

/**
 * Test hook for the recovery paths (CLI batch, server pool): while the file named by
 * TAZAMUN_TEST_FAULT_FILE exists, the next search fails as an engine fault would. The file is removed by
 * the search that trips it (one fault, whichever thread gets there first) unless it holds "always".
 */
function injectedFault(): void {
  const file = process.env.TAZAMUN_TEST_FAULT_FILE;
  if (!file) return;
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  if (content.trim() !== 'always') {
    try {
      unlinkSync(file);
    } catch {
      return; // another thread took this fault
    }
  }
  const trap = new Error('memory access out of bounds (injected by TAZAMUN_TEST_FAULT_FILE)');
  trap.name = 'RuntimeError';
  throw trap;
}

/**
 * A deterministic noise of about one 16-bit step (-90 dBFS) on every sample: inaudible, keeps results
 * reproducible, and keeps the front end's log energies finite on digital silence (the reference decoder
 * was given the same).
 */
export function withDither(samples: Float32Array): Float32Array {
  const out = new Float32Array(samples.length);
  let seed = 0x2545f491;
  for (let i = 0; i < samples.length; i++) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    out[i] = samples[i]! + ((seed >>> 0) / 4294967296 - 0.5) * (2 / 32768);
  }
  return out;
}
