// A thin, typed wrapper over one soundswallower decoder (pocketsphinx in WASM): loading a model,
// dictionary look-ups and additions, and running a finite-state grammar over audio to get word, phone and
// state segments. One decoder per model stays loaded for the life of the process (batch mode reuses it).
import createModule from 'soundswallower';
import type { Decoder, SoundSwallowerModule } from 'soundswallower';
import type { HmmModelSpec } from './models.ts';
import type { Fsg } from '../../align/grammar.ts';

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

export interface HmmSegment {
  /** dictionary word (or phone / state label) */
  t: string;
  /** begin, seconds */
  b: number;
  /** duration, seconds */
  d: number;
  /** posterior-like probability from the decoder */
  p: number;
  w?: HmmSegment[];
}

let modulePromise: Promise<SoundSwallowerModule> | null = null;
function ssModule(): Promise<SoundSwallowerModule> {
  modulePromise ??= createModule();
  return modulePromise;
}

export interface DecodeSettings {
  /** log-domain beams as probabilities (pocketsphinx style) */
  beam: number;
  wbeam: number;
  pbeam: number;
}

export const FRAME_RATE = 100;

export class HmmDecoder {
  private readonly known = new Map<string, string>();
  private settings: DecodeSettings | null = null;

  private constructor(
    readonly spec: HmmModelSpec,
    private readonly decoder: Decoder,
    readonly phones: ReadonlySet<string>,
    private readonly wasm: FsgFunctions,
  ) {}

  static async load(spec: HmmModelSpec): Promise<HmmDecoder> {
    const ss = await ssModule();
    const config: Record<string, string | number | boolean> = {
      hmm: spec.hmm,
      featparams: spec.featParams,
      dict: spec.dict,
      samprate: 16000,
      loglevel: 'FATAL',
      fillprob: 1e-8,
    };
    if (spec.noiseDict) config.fdict = spec.noiseDict;
    const decoder = new ss.Decoder(config);
    await decoder.initialize();
    const phones = new Set<string>();
    for (const line of (await import('node:fs')).readFileSync(spec.dict, 'utf8').split('\n', 3000)) {
      for (const p of line.split(/\s+/).slice(1)) if (p) phones.add(p);
    }
    return new HmmDecoder(spec, decoder, phones, ss as unknown as FsgFunctions);
  }

  /** All pronunciations the model's dictionary has for a word (word, word(2), ...). */
  lookup(word: string): string[][] {
    const out: string[][] = [];
    for (let k = 1; k < 10; k++) {
      const key = k === 1 ? word : `${word}(${k})`;
      const pron = this.decoder.lookup_word(key);
      if (!pron) break;
      out.push(pron.trim().split(/\s+/));
    }
    return out;
  }

  /** Adds a pronunciation under a grammar-safe name built from its phones; returns the name. */
  wordFor(phones: string[], prefix = 'P'): string {
    const name = `${prefix}_` + phones.map((p) => p.replace(/[^A-Za-z0-9]/g, 'x')).join('_');
    if (!this.known.has(name)) {
      this.decoder.add_words([name, phones.join(' ')]);
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
    this.decoder.set_config('beam', s.beam);
    this.decoder.set_config('wbeam', s.wbeam);
    this.decoder.set_config('pbeam', s.pbeam);
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
      m.HEAPU8.set(bytes, ptr);
      m.HEAPU8[ptr + bytes.length] = 0;
      return ptr;
    };
    const name = cstr('tz');
    const fsg = m._fsg_model_init(name, lmath, lw, g.states);
    m._free(name);
    if (!fsg) throw new Error('could not create the grammar');
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
    if (m._decoder_set_fsg(cdecoder, fsg) < 0) throw new Error('the search refused the grammar');
  }

  private decode(samples: Float32Array, g: Fsg): void {
    this.setGrammar(g);
    this.decoder.start();
    this.decoder.process_audio(withDither(samples), false, true);
    this.decoder.stop();
  }

  /**
   * Runs the grammar over the audio: word segments from the search (level 0), or re-aligned to states
   * with phone segments (level 1). Returns null when no path is found (the audio does not fit the grammar
   * within the beams, or the state alignment fails).
   */
  run(samples: Float32Array, g: Fsg, level: 0 | 1 = 1): HmmSegment | null {
    this.decode(samples, g);
    let result: HmmSegment;
    try {
      result = this.decoder.get_alignment({ align_level: level }) as HmmSegment;
    } catch {
      return null;
    }
    if (!result || !Array.isArray(result.w)) return null;
    return result;
  }

  /** Best path text only (recognition passes do not need the state alignment). */
  recognise(samples: Float32Array, g: Fsg): string {
    this.decode(samples, g);
    return this.decoder.get_text();
  }
}

/**
 * pocketsphinx's front end divides by the frame energy; digitally silent stretches make it fail. A
 * deterministic noise of about one 16-bit step (-90 dBFS) is inaudible and keeps results reproducible.
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
