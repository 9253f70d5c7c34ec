// A thin, typed wrapper over one soundswallower decoder (pocketsphinx in WASM): loading a model,
// dictionary look-ups and additions, and running a finite-state grammar over audio to get word, phone and
// state segments. One decoder per model stays loaded for the life of the process (batch mode reuses it).
import createModule from 'soundswallower';
import type { Decoder, SoundSwallowerModule } from 'soundswallower';
import type { HmmModelSpec } from './models.ts';

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
    return new HmmDecoder(spec, decoder, phones);
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

  /**
   * Runs the grammar over the audio. Returns null when the search finds no complete path (the audio
   * does not fit the grammar within the beams).
   */
  run(samples: Float32Array, jsgf: string): HmmSegment | null {
    this.decoder.set_grammar(jsgf);
    this.decoder.start();
    this.decoder.process_audio(withDither(samples), false, true);
    this.decoder.stop();
    let result: HmmSegment;
    try {
      result = this.decoder.get_alignment({ align_level: 1 }) as HmmSegment;
    } catch {
      return null;
    }
    if (!result || !Array.isArray(result.w)) return null;
    return result;
  }

  /** Best path text only (recognition passes do not need the state alignment). */
  recognise(samples: Float32Array, jsgf: string): string {
    this.decoder.set_grammar(jsgf);
    this.decoder.start();
    this.decoder.process_audio(withDither(samples), false, true);
    this.decoder.stop();
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
