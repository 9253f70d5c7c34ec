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
import { EngineError, toEngineError } from '../../errors.ts';
import { TMAT_FORBIDDEN, loadAcousticModel } from './model/acoustic-model.ts';
import type { AcousticModel } from './model/acoustic-model.ts';
import { PronunciationDictionary, readFillers } from './model/dictionary.ts';
import { FrontEnd } from './frontend/mfcc.ts';
import { computeFeatures } from './frontend/features.ts';
import { gaussianKernel } from './scoring/gaussians.ts';
import type { GaussianKernel, GaussianTopN } from './scoring/gaussians.ts';
import { densityCosts, senoneCosts } from './scoring/senones.ts';
import { DEFAULT_CONTEXTS, SPHINX_CONTEXTS, buildNetwork } from './search/network.ts';
import type { Network, WordDef, WordGraph } from './search/network.ts';
import { viterbi } from './search/viterbi.ts';
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
  w?: HmmSegment[];
}

export interface DecodeSettings {
  /** log-domain beams as probabilities (pocketsphinx style) */
  beam: number;
  wbeam: number;
  pbeam: number;
}

export const FRAME_RATE = 100;

/** What the HMM back-end needs of a decoder (this one, or the soundswallower reference). */
export interface HmmSearch {
  readonly spec: HmmModelSpec;
  readonly phones: ReadonlySet<string>;
  lookup(word: string): string[][];
  wordFor(phones: string[], prefix?: string): string;
  configure(s: DecodeSettings): void;
  run(samples: Float32Array, g: Fsg, level?: 0 | 1): Promise<HmmSegment | null>;
  recognise(samples: Float32Array, g: Fsg): Promise<string>;
}

/** Search weights of the Sphinx decoders' defaults: language weight, insertion penalties, fillers. */
const LANGUAGE_WEIGHT = 6.5;
const WORD_INSERTION = 0.65;
const SILENCE_PROB = 0.005;
const FILLER_PROB = 1e-8;

const LN_BASE = Math.log(1.0001);

/** A log probability (natural log) as the decoders quantise a grammar weight: base 1.0001, then 10 bits. */
export function logToUnits(lnp: number, weight = 1): number {
  const base = Math.trunc(Math.trunc(lnp / LN_BASE) * weight);
  return Math.floor(base / 1024);
}

/**
 * Which phone contexts the search uses: its own, or TAZAMUN_CONTEXTS=sphinx for pocketsphinx's
 * (search/network.ts), with which the parity tests hold this decoder to the soundswallower one.
 */
function contextRules() {
  return process.env.TAZAMUN_CONTEXTS === 'sphinx' ? SPHINX_CONTEXTS : DEFAULT_CONTEXTS;
}

/** One decoder per model, per process (worker threads each load their own). */
const decoders = new Map<string, Promise<HmmDecoder>>();
/** Decoders created in this process: a fault retires them and the next job loads fresh ones. */
let generations = 0;

export function loadHmmDecoder(spec: HmmModelSpec): Promise<HmmDecoder> {
  let d = decoders.get(spec.id);
  if (!d) {
    generations++;
    d = HmmDecoder.load(spec);
    d.catch(() => decoders.delete(spec.id));
    decoders.set(spec.id, d);
  }
  return d;
}

/** Drops every loaded decoder: the next loadHmmDecoder() reads the model again. */
export function retireDecoders(): void {
  decoders.clear();
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
  topn: GaussianTopN;
  nFrames: number;
}

/** A window's identity by content: its length and a hash of every sample's bits. */
function fingerprint(samples: Float32Array): string {
  const words = new Uint32Array(samples.buffer, samples.byteOffset, samples.length);
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i]!, 0x01000193);
  return `${samples.length}:${h >>> 0}`;
}

/** Scored windows kept per decoder: the alignment's and the recognition pass's over the same audio. */
const SCORED_KEPT = 3;

export class HmmDecoder implements HmmSearch {
  private readonly names = new Map<string, number[]>();
  private readonly known = new Map<string, string>();
  private settings: DecodeSettings = { beam: 1e-48, wbeam: 7e-29, pbeam: 1e-48 };
  private scored: ScoredWindow[] = [];
  private readonly fillerWords: { word: string; phone: number; cost: number }[];
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
      const dictBytes = readFileSync(spec.dict);
      const noise = spec.noiseDict ? readFileSync(spec.noiseDict, 'utf8') : '<sil> SIL\n';
      const kernel = await gaussianKernel(model);
      return new HmmDecoder(spec, model, new PronunciationDictionary(dictBytes), phoneOrder(model, dictBytes), noise, kernel);
    } catch (err) {
      if (err instanceof EngineError) throw err;
      throw toEngineError(err, `could not load the acoustic model ${spec.id} from ${spec.hmm}`);
    }
  }

  /** Which Gaussian kernel scores the frames ('onnx' or the JavaScript fallback 'js'). */
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
      this.names.set(name, phones.map((p) => this.model.mdef.ciIndex.get(p)!));
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
  private async score(samples: Float32Array): Promise<ScoredWindow> {
    const same = this.scored.find((w) => w.samples === samples);
    if (same) return same;
    const key = fingerprint(samples);
    const equal = this.scored.find((w) => w.key === key);
    if (equal) return equal;
    const logMel = this.frontEnd.logMel(withDither(samples));
    const cep = this.frontEnd.cepstra(logMel);
    const feats = computeFeatures(cep, this.model.frontEnd, this.model.streamLengths);
    const topn = await this.kernel.topN(feats);
    const w = { samples, key, topn, nFrames: feats.nFrames };
    this.scored = [w, ...this.scored].slice(0, SCORED_KEPT);
    return w;
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
      const free = /^[GR]_/.test(name) && contextRules() !== SPHINX_CONTEXTS;
      words.push({ name, phones, kind: free ? 'free' : 'word' });
      index.set(name, i);
      return i;
    };
    const arcs = g.arcs.map((a) => ({
      from: a.from,
      to: a.to,
      word: a.word === null ? -1 : wordIndex(a.word),
      cost: -(a.logWeight !== undefined
        ? Math.floor(Math.max(-(2 ** 30), Math.round(a.logWeight / LN_BASE)) / 1024)
        : logToUnits(Math.log(a.prob))),
    }));
    for (const f of this.fillerWords) {
      const w = words.length;
      words.push({ name: f.word, phones: [f.phone], kind: 'filler' });
      for (let s = 0; s < g.states; s++) arcs.push({ from: s, to: s, word: w, cost: f.cost });
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
  private async search(samples: Float32Array, g: Fsg): Promise<{ net: Network; costs: Int32Array; path: SearchResult | null; nFrames: number }> {
    try {
      injectedFault();
      const w = await this.score(samples);
      const net = buildNetwork(this.model, this.wordGraph(g), contextRules());
      const dens = densityCosts(w.topn, net.codebooks);
      const costs = senoneCosts(this.model, w.topn, dens, net.senones);
      const path = viterbi(this.model, net, costs, w.nFrames, this.beams());
      return { net, costs, path, nFrames: w.nFrames };
    } catch (err) {
      if (err instanceof EngineError) throw err;
      throw toEngineError(err, `decoding (model ${this.spec.id})`);
    }
  }

  /**
   * Runs the grammar over the audio: word segments with their phones (level 1) or without (level 0), and
   * fillers (<sil>, [NOISE]) between them. Null when no path reaches the grammar's end within the beams.
   */
  async run(samples: Float32Array, g: Fsg, level: 0 | 1 = 1): Promise<HmmSegment | null> {
    const { net, costs, path, nFrames } = await this.search(samples, g);
    if (!path) return null;
    return segments(this.model, net, costs, path, nFrames, level, this.model.mdef.ciPhones);
  }

  /** The best path's words, space-separated (fillers left out). */
  async recognise(samples: Float32Array, g: Fsg): Promise<string> {
    const { net, path } = await this.search(samples, g);
    if (!path) return '';
    const words: string[] = [];
    let lastArc = -1;
    for (const p of path.phones) {
      const h = net.hmms[p.hmm]!;
      const w = net.graph.words[net.graph.arcs[h.arc]!.word]!;
      if (h.pos === 0 || h.arc !== lastArc) {
        if (w.kind !== 'filler') words.push(w.name);
      }
      lastArc = h.arc;
    }
    return words.join(' ');
  }
}

/** The best path as the decoders' segments: words with their phones, times in seconds. */
function segments(
  model: AcousticModel,
  net: Network,
  costs: Int32Array,
  path: SearchResult,
  nFrames: number,
  level: 0 | 1,
  phoneNames: readonly string[],
): HmmSegment {
  const nSen = net.senones.length;
  // each frame's best network senone: a phone's fit is its path's cost above that, frame by frame
  const best = new Int32Array(nFrames).fill(2 ** 30);
  for (let t = 0; t < nFrames; t++)
    for (let k = 0; k < nSen; k++) if (costs[t * nSen + k]! < best[t]!) best[t] = costs[t * nSen + k]!;
  const words: HmmSegment[] = [];
  let cur: { arc: number; seg: HmmSegment; logp: number } | null = null;
  for (const p of path.phones) {
    const h = net.hmms[p.hmm]!;
    const excess = phoneExcess(model, h.tmat, h.senones, costs, nSen, best, p.start, p.end);
    // pocketsphinx reads the state alignment's scores (shifted units) as if they were base-1.0001 logs
    const logp = -excess * LN_BASE;
    const phoneSeg: HmmSegment = {
      t: '',
      b: p.start / FRAME_RATE,
      d: (p.end - p.start + 1) / FRAME_RATE,
      p: Math.exp(logp),
    };
    if (!cur || h.pos === 0 || h.arc !== cur.arc) {
      const w = net.graph.words[net.graph.arcs[h.arc]!.word]!;
      cur = { arc: h.arc, seg: { t: w.name, b: phoneSeg.b, d: 0, p: 1, w: [] }, logp: 0 };
      words.push(cur.seg);
    }
    phoneSeg.t = phoneNames[h.ci]!;
    cur.seg.d = Math.round((p.end + 1) / FRAME_RATE * 1000) / 1000 - cur.seg.b;
    cur.logp += logp;
    cur.seg.p = Math.exp(cur.logp);
    if (level === 1) cur.seg.w!.push(phoneSeg);
  }
  for (const w of words) {
    w.d = Math.round(w.d * 1000) / 1000;
    if (level === 0) delete w.w;
  }
  return { t: '', b: 0, d: nFrames / FRAME_RATE, p: 1, w: words };
}

/**
 * How far a phone's best state path over frames [start, end] scores below each frame's best senone, its
 * transitions included: the phone's own small Viterbi (left to right, entered in its first state, left
 * from its last), in units. This is the quantity pocketsphinx's state alignment reports per phone.
 */
function phoneExcess(
  m: AcousticModel,
  tmat: number,
  senones: Int32Array,
  costs: Int32Array,
  nSen: number,
  best: Int32Array,
  start: number,
  end: number,
): number {
  const n = senones.length;
  const nTo = m.nTmatTo;
  const tp = (from: number, to: number) => {
    const c = m.tmat[(tmat * n + from) * nTo + to]!;
    return c >= TMAT_FORBIDDEN ? Infinity : c;
  };
  let prev = new Float64Array(n).fill(Infinity);
  let next = new Float64Array(n);
  prev[0] = costs[start * nSen + senones[0]!]! - best[start]!;
  for (let t = start + 1; t <= end; t++) {
    for (let j = 0; j < n; j++) {
      let b = prev[j]! + tp(j, j);
      if (j > 0) b = Math.min(b, prev[j - 1]! + tp(j - 1, j));
      if (j > 1) b = Math.min(b, prev[j - 2]! + tp(j - 2, j));
      next[j] = b + costs[t * nSen + senones[j]!]! - best[t]!;
    }
    [prev, next] = [next, prev];
  }
  let out = Infinity;
  for (let j = 0; j < n; j++) out = Math.min(out, prev[j]! + tp(j, n));
  return Number.isFinite(out) ? out : prev[n - 1]!;
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
