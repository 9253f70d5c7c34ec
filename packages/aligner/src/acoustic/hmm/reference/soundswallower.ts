// THE REFERENCE, not the default path: the decoder Tazamun used before it had its own (decoder.ts), kept so
// that the parity tests can hold the new decoder against it on the dev sets (docs/decisions/0055).
//
// A thin, typed wrapper over one soundswallower decoder (pocketsphinx in WASM): loading a model,
// dictionary look-ups and additions, and running a finite-state grammar over audio to get word, phone and
// state segments. One decoder per model stays loaded for the life of the process (batch mode reuses it).
//
// Every call into the WASM module goes through guard(): whatever it throws (a trap such as "memory access
// out of bounds", Emscripten's ExitStatus object, soundswallower's own errors) becomes an EngineError with
// code engine_fault, and the module is marked broken. A module that trapped mid-call has a heap and
// decoder state that can no longer be trusted (the decoder stays "in an utterance" and every later
// start() fails), so the next loadDecoder() instantiates a fresh module and fresh decoders.
import { readFileSync } from 'node:fs';
import { modelPhones } from '../decoder.ts';
import type { Decoder, SoundSwallowerModule } from 'soundswallower';
import type { HmmModelSpec } from '../models.ts';
import type { Fsg } from '../../../align/grammar.ts';
import { EngineError, toEngineError } from '../../../errors.ts';
import type { DecodeSettings, HmmSearch, HmmSegment } from '../decoder.ts';
import { withDither } from '../decoder.ts';

/** The C functions of the WASM module that build a grammar graph (exported by soundswallower, not typed). */
interface FsgFunctions {
  HEAPU8: Uint8Array;
  _malloc(n: number): number;
  _free(p: number): void;
  _decoder_logmath(d: number): number;
  _logmath_log(lmath: number, p: number): number;
  _fsg_model_init(name: number, lmath: number, lw: number, nStates: number): number;
  _fsg_set_states(fsg: number, start: number, final: number): void;
  _fsg_model_word_add(fsg: number, word: number): number;
  _fsg_model_trans_add(fsg: number, from: number, to: number, logp: number, wid: number): void;
  _fsg_model_null_trans_add(fsg: number, from: number, to: number, logp: number): number;
  _decoder_set_fsg(d: number, fsg: number): number;
}

/** One WASM module instance and the decoders living in its heap. */
interface Runtime {
  module: Promise<SoundSwallowerModule>;
  decoders: Map<string, Promise<SoundswallowerDecoder>>;
  broken: boolean;
}

let runtime: Runtime | null = null;
/** Modules instantiated in this process (a fresh one after each fault). */
let generations = 0;

function currentRuntime(): Runtime {
  if (!runtime || runtime.broken) {
    // imported when first needed: the default path never searches with it
    const module = import('soundswallower').then((mod) => mod.default().then(padJsAllocations));
    runtime = { module, decoders: new Map(), broken: false };
    generations++;
  }
  return runtime;
}

/**
 * soundswallower 0.6.3 copies each model file into the WASM heap with `load_to_s3file()`, which allocates
 * `size + 1` bytes and then writes its NUL terminator at `addr + size + 1`, one byte past the block
 * (js/api-node.js, still so upstream). When size + 1 is 4 modulo 8 the block has no slack and that byte
 * is the low byte of the next heap chunk's header: its size and in-use bits are zeroed. Debian's
 * cmudict-en-us.dict (3,272,051 bytes) is such a file. In a fresh heap the neighbour is the unused top
 * and nothing shows; after a long job (the 48 s French demo with its recognition pass) the heap is
 * fragmented, the dictionary lands in a hole before a live block, and a later free() of that block walks
 * out of memory ("memory access out of bounds" in the recognition or alignment pass), leaving the
 * decoder inside an utterance ("Failed to start utterance processing" ever after).
 *
 * The module calls `Module._malloc` for that buffer, so every allocation made from JavaScript is given one
 * spare byte here. The first call replaces Emscripten's lazy `_malloc` stub by the WASM export, which is
 * why the wrapper is installed after one call.
 */
function padJsAllocations(m: SoundSwallowerModule): SoundSwallowerModule {
  const mm = m as unknown as { _malloc: (n: number) => number; _free: (p: number) => void };
  mm._free(mm._malloc(8));
  const malloc = mm._malloc;
  mm._malloc = (n: number) => malloc(n + 1);
  return m;
}

/** The decoder for a model, loaded once per module instance. */
export function loadReferenceDecoder(spec: HmmModelSpec): Promise<SoundswallowerDecoder> {
  const rt = currentRuntime();
  let d = rt.decoders.get(spec.id);
  if (!d) {
    d = SoundswallowerDecoder.load(spec, rt);
    // A model that fails to load must not stay cached as a rejected promise.
    d.catch(() => rt.decoders.delete(spec.id));
    rt.decoders.set(spec.id, d);
  }
  return d;
}

/**
 * Drops the module and every decoder in it: the next loadHmmDecoder() starts from a fresh module. For a
 * caller that saw an engine fault and retries on its own (the CLI batch); guard() does it by itself.
 */
export function retireReferenceDecoders(): void {
  if (runtime) runtime.broken = true;
}

/** How many WASM module instances this process has created (tests check that a fault led to a new one). */
export function referenceGenerations(): number {
  return generations;
}

/**
 * The model's phones in the order its dictionary first uses them (the phone loops are built in this
 * order, and a different order can break ties differently), then the model's other phones (silence and
 * fillers).
 */
function phoneOrder(spec: HmmModelSpec): Set<string> {
  const model = modelPhones(spec);
  const out = new Set<string>();
  for (const line of readFileSync(spec.dict, 'utf8').split('\n', 3000)) {
    if (line.startsWith(';;')) continue;
    for (const p of line.split(/\s+/).slice(1)) if (model.has(p)) out.add(p);
  }
  for (const p of model) out.add(p);
  return out;
}

/**
 * Ceilings on one search graph. The WASM heap holds about 1 KB per arc once pocketsphinx has built its
 * lexicon tree (measured on a 3 s clip: 1,001 states / 9,062 arcs -> 40 MB of heap; 5,001 / 45,426 ->
 * 84 MB; 20,001 / 181,789 -> 208 MB and 385 MB resident), and the heap cannot grow past 2 GB: a 5 MB
 * transcript for a 3 s clip used to end in an allocation failure inside the module. A window of real
 * speech needs far less: 75 s of fast speech is about 600 words, 6,000 arcs, twice that with the
 * garbage loop, a few times more for unvowelled Arabic lattices. Above the ceilings the window is
 * refused as an input error (grammar_too_large) before the module is touched.
 */
export const MAX_GRAMMAR_STATES = 50_000;
export const MAX_GRAMMAR_ARCS = 200_000;

/** The reference decoder: soundswallower's WASM build of pocketsphinx (kept for the parity tests). */
export class SoundswallowerDecoder implements HmmSearch {
  private readonly known = new Map<string, string>();
  private settings: DecodeSettings | null = null;

  private constructor(
    readonly spec: HmmModelSpec,
    private readonly decoder: Decoder,
    readonly phones: ReadonlySet<string>,
    private readonly wasm: FsgFunctions,
    private readonly runtime: Runtime,
  ) {}

  static async load(spec: HmmModelSpec, rt: Runtime): Promise<SoundswallowerDecoder> {
    let ss: SoundSwallowerModule;
    try {
      ss = await rt.module;
    } catch (err) {
      rt.broken = true;
      throw toEngineError(err, 'could not start the speech decoder (WASM)');
    }
    const config: Record<string, string | number | boolean> = {
      hmm: spec.hmm,
      featparams: spec.featParams,
      dict: spec.dict,
      samprate: 16000,
      loglevel: 'FATAL',
      fillprob: 1e-8,
    };
    if (spec.noiseDict) config.fdict = spec.noiseDict;
    let decoder: Decoder;
    try {
      decoder = new ss.Decoder(config);
      await decoder.initialize();
    } catch (err) {
      rt.broken = true;
      throw toEngineError(err, `could not load the acoustic model ${spec.id} from ${spec.hmm}`);
    }
    return new SoundswallowerDecoder(spec, decoder, phoneOrder(spec), ss as unknown as FsgFunctions, rt);
  }

  /** Runs a call into the WASM module; a throw breaks the module (see the header) and becomes a fault. */
  private guard<T>(what: string, f: () => T): T {
    if (this.runtime.broken)
      throw new EngineError('engine_fault', `${what}: the decoder was retired after an earlier fault`);
    try {
      return f();
    } catch (err) {
      if (err instanceof EngineError) throw err;
      this.runtime.broken = true;
      throw toEngineError(err, `${what} (model ${this.spec.id})`);
    }
  }

  /** All pronunciations the model's dictionary has for a word (word, word(2), ...). */
  lookup(word: string): string[][] {
    const out: string[][] = [];
    for (let k = 1; k < 10; k++) {
      const key = k === 1 ? word : `${word}(${k})`;
      const pron = this.guard('dictionary look-up', () => this.decoder.lookup_word(key));
      if (!pron) break;
      out.push(pron.trim().split(/\s+/));
    }
    return out;
  }

  /** Adds a pronunciation under a grammar-safe name built from its phones; returns the name. */
  wordFor(phones: string[], prefix = 'P'): string {
    const name = `${prefix}_` + phones.map((p) => p.replace(/[^A-Za-z0-9]/g, 'x')).join('_');
    if (!this.known.has(name)) {
      // soundswallower reports a refused word with a ReferenceError ("word is not defined", a typo in its
      // own error path): name the phones here instead.
      const unknown = phones.filter((p) => !this.phones.has(p));
      if (unknown.length)
        throw new EngineError(
          'engine_fault',
          `the pronunciation ${phones.join(' ')} uses phones the model ${this.spec.id} does not have: ${unknown.join(' ')}`,
        );
      this.guard('adding a pronunciation', () => this.decoder.add_words([name, phones.join(' ')]));
      this.known.set(name, phones.join(' '));
    }
    return name;
  }

  configure(s: DecodeSettings): void {
    if (
      this.settings &&
      this.settings.beam === s.beam &&
      this.settings.wbeam === s.wbeam &&
      this.settings.pbeam === s.pbeam
    )
      return;
    this.guard('setting the beams', () => {
      this.decoder.set_config('beam', s.beam);
      this.decoder.set_config('wbeam', s.wbeam);
      this.decoder.set_config('pbeam', s.pbeam);
    });
    this.settings = s;
  }

  /** Hands a grammar graph to the search (pocketsphinx owns the model afterwards). */
  private setGrammar(g: Fsg): void {
    const m = this.wasm;
    const cdecoder = (this.decoder as unknown as { cdecoder: number }).cdecoder;
    const lmath = m._decoder_logmath(cdecoder);
    const lw = Number(this.decoder.get_config('lw'));
    const cstr = (text: string): number => {
      const bytes = new TextEncoder().encode(text);
      const ptr = m._malloc(bytes.length + 1);
      if (!ptr) throw new EngineError('engine_fault', 'the decoder is out of memory');
      // HEAPU8 is read after _malloc: a malloc that grows the memory replaces the view.
      m.HEAPU8.set(bytes, ptr);
      m.HEAPU8[ptr + bytes.length] = 0;
      return ptr;
    };
    const name = cstr('tz');
    const fsg = m._fsg_model_init(name, lmath, lw, g.states);
    m._free(name);
    if (!fsg) throw new EngineError('engine_fault', 'could not create the grammar');
    m._fsg_set_states(fsg, g.start, g.final);
    const ids = new Map<string, number>();
    for (const a of g.arcs) {
      const logp =
        a.logWeight !== undefined
          ? Math.max(-(2 ** 30), Math.round(a.logWeight / Math.log(1.0001)))
          : m._logmath_log(lmath, a.prob);
      if (a.word === null) {
        m._fsg_model_null_trans_add(fsg, a.from, a.to, logp);
        continue;
      }
      let wid = ids.get(a.word);
      if (wid === undefined) {
        const w = cstr(a.word);
        wid = m._fsg_model_word_add(fsg, w);
        m._free(w);
        ids.set(a.word, wid);
      }
      m._fsg_model_trans_add(fsg, a.from, a.to, logp, wid);
    }
    if (m._decoder_set_fsg(cdecoder, fsg) < 0)
      throw new EngineError('engine_fault', 'the search refused the grammar');
  }

  private decode(samples: Float32Array, g: Fsg): void {
    if (g.states > MAX_GRAMMAR_STATES || g.arcs.length > MAX_GRAMMAR_ARCS) {
      const seconds = (samples.length / 16000).toFixed(1);
      throw new EngineError(
        'grammar_too_large',
        `the transcript is far longer than the audio can hold: its search graph for ${seconds} s of audio ` +
          `has ${g.states} states and ${g.arcs.length} arcs (at most ${MAX_GRAMMAR_STATES} and ${MAX_GRAMMAR_ARCS})`,
      );
    }
    const pcm = withDither(samples);
    this.guard('decoding', () => {
      this.setGrammar(g);
      this.decoder.start();
      this.decoder.process_audio(pcm, false, true);
      this.decoder.stop();
    });
  }

  /**
   * Runs the grammar over the audio: word segments from the search (level 0), or re-aligned to states
   * with phone segments (level 1). Returns null when no path is found (the audio does not fit the grammar
   * within the beams, or the state alignment fails).
   */
  async run(samples: Float32Array, g: Fsg, level: 0 | 1 = 1): Promise<HmmSegment | null> {
    this.decode(samples, g);
    // get_alignment() throws a SyntaxError when the search found no path (an empty JSON string): that is
    // an answer, not a fault. A trap in the state alignment still breaks the module.
    const result = this.guard('reading the alignment', () => {
      try {
        return this.decoder.get_alignment({ align_level: level }) as HmmSegment;
      } catch (err) {
        if (err instanceof SyntaxError) return null;
        throw err;
      }
    });
    if (!result || !Array.isArray(result.w)) return null;
    return result;
  }

  /** Best path text only (recognition passes do not need the state alignment). */
  async recognise(samples: Float32Array, g: Fsg): Promise<string> {
    this.decode(samples, g);
    return this.guard('reading the recognised text', () => this.decoder.get_text());
  }
}
