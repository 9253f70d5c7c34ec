// The `mms` back-end: Meta's MMS forced-alignment model (wav2vec2, CTC over romanised letters, 20 ms
// frames) through ONNX Runtime. A unit is a token romanised into the model's 27 letters; a window is
// aligned by one banded, checkpointed CTC Viterbi over its emissions with the `<star>` wildcard
// (align/ctc-*.ts), which is linear in the audio, so the engine gives it the whole file as one window
// (traits.wholeFile); the recognition pass is greedy decoding of the same emissions.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PhoneTiming } from '@tazamun/contracts/alignment-result';
import type {
  AcousticBackend,
  BackendTraits,
  Recognition,
  Unit,
  UnitSpan,
  WindowRequest,
} from '../backend.ts';
import { buildCtcGraph } from '../../align/ctc-graph.ts';
import { greedyDecode } from '../../align/ctc-greedy.ts';
import { ctcWordSpans } from '../../align/ctc-spans.ts';
import type { CtcSpanOptions } from '../../align/ctc-spans.ts';
import { ctcViterbi } from '../../align/ctc-viterbi.ts';
import { SAMPLE_RATE } from '../../audio/decode.ts';
import { EngineError } from '../../errors.ts';
import { scoreRecognition } from '../../metrics/recognition.ts';
import { findInstalled, MODELS } from '../../models/registry.ts';
import { romanizeWord } from '../../romanize/romanize.ts';
import { lookupIso639, MMS_IPA_REFUSAL } from '../../text/languages.ts';
import type { InputKind } from '@tazamun/contracts/alignment-options';
import {
  arraySource,
  computeEmissions,
  FRAME_STRIDE,
  loadMmsModel,
  sliceEmissions,
  wav2vec2Frames,
} from './emissions.ts';
import type { EmissionOptions, Emissions, MmsModel, SampleSource } from './emissions.ts';
import { checkVocabFile, FIRST_LETTER, letterId, MMS_VOCAB } from './vocab.ts';

export const MMS_VERSION = 'mms-fa-onnx-1';

export const GREEDY_METHOD =
  'greedy CTC decoding of the MMS emissions (not biased by the transcript) compared with the romanised ' +
  'transcript: cer = letter error rate, wer = share of words with fewer than half of their letters recognised';

export interface MmsBackendOptions {
  /** an ONNX file to use instead of the installed model */
  modelPath?: string;
  env?: NodeJS.ProcessEnv;
  emission?: Partial<EmissionOptions>;
  spans?: Partial<CtcSpanOptions>;
  /** Viterbi band half-width as seconds of speech (default 120) */
  bandSeconds?: number;
}

function resolveModel(opts: MmsBackendOptions): { path: string; name: string; normalize: boolean } {
  if (opts.modelPath) return { path: opts.modelPath, name: opts.modelPath, normalize: true };
  const inst = findInstalled('mms', opts.env);
  if (!inst) {
    throw new EngineError(
      'model_not_installed',
      'the MMS model is not installed: run `tazamun models pull mms` once (or use --engine hmm)',
    );
  }
  checkVocabFile(join(inst.dir, 'vocab.json'));
  // The export's feature-extractor settings; MMS normalises each input (do_normalize: true).
  const pre = join(inst.dir, 'preprocessor_config.json');
  let normalize = true;
  if (existsSync(pre)) {
    const cfg = JSON.parse(readFileSync(pre, 'utf8')) as { do_normalize?: boolean; sampling_rate?: number };
    if (cfg.sampling_rate !== undefined && cfg.sampling_rate !== SAMPLE_RATE) {
      throw new Error(
        `${pre}: the model expects ${cfg.sampling_rate} Hz audio, the engine decodes to ${SAMPLE_RATE} Hz`,
      );
    }
    normalize = cfg.do_normalize ?? true;
  }
  return { path: inst.modelPath, name: `${MODELS.mms.repo}:${inst.variant}`, normalize };
}

/**
 * The back-end on the installed model (or `modelPath`). The engine calls it before decoding, so a missing
 * or unexpected model fails before an hour of audio is read. The ONNX session is loaded once per file.
 */
export async function loadMmsBackend(opts: MmsBackendOptions = {}): Promise<MmsBackend> {
  const { path, name, normalize } = resolveModel(opts);
  const session = await loadMmsModel(path, MMS_VOCAB.length);
  return new MmsBackend(session, name, { ...opts, emission: { normalize, ...opts.emission } });
}

const round = (x: number): number => Math.round(x * 10000) / 10000;

export class MmsBackend implements AcousticBackend {
  readonly name = 'mms' as const;
  readonly version = MMS_VERSION;
  // MMS confidences are not calibrated: no labelled run of the real model has been fitted yet
  // (bench/calibrate.ts), so a word's confidence is its mean letter posterior.
  readonly traits: BackendTraits = {
    ditherZeros: false,
    refineEdges: false,
    wholeFile: true,
    calibrated: false,
    pcm16: false,
  };
  /**
   * The emissions of the last samples run through the model. recognise() on the same samples, or on a
   * window cut out of them, reads them instead of running the model again. One back-end serves one job,
   * whose samples do not change.
   */
  private last: { samples: Float32Array; em: Emissions } | null = null;

  constructor(
    private readonly session: MmsModel,
    readonly model: string,
    private readonly opts: MmsBackendOptions = {},
  ) {}

  /** Each token romanised into the model's letters; a token with no letters gets a unit without prons. */
  async pronounce(
    tokens: { text: string; wordIndex: number }[],
    lang: string,
    inputKind: InputKind,
  ): Promise<{ units: Unit[]; route: string; warnings: string[] }> {
    if (inputKind === 'ipa') throw new EngineError('unsupported_option', MMS_IPA_REFUSAL);
    // The language only matters to the romaniser for Japanese (kanji are not read as Chinese).
    const iso3 = lookupIso639(lang)?.iso3 ?? lang;
    const warnings: string[] = [];
    const unknown = new Set<string>();
    const units: Unit[] = tokens.map((t, i) => {
      const r = romanizeWord(t.text, iso3);
      r.unknown.forEach((c) => unknown.add(c));
      return { tokenIndex: i, wordIndex: t.wordIndex, text: r.text, prons: r.text ? [[...r.text]] : [] };
    });
    if (unknown.size) {
      warnings.push(`characters with no romanisation were left out: ${[...unknown].slice(0, 20).join(' ')}`);
    }
    const spelled = new Set(units.filter((u) => u.prons.length).map((u) => u.wordIndex));
    if (spelled.size === 0) {
      throw new EngineError(
        'nothing_to_align',
        'nothing to align: no word of the transcript romanises to letters',
      );
    }
    const silent = new Map<number, string>();
    for (const t of tokens) {
      if (!spelled.has(t.wordIndex)) silent.set(t.wordIndex, `${silent.get(t.wordIndex) ?? ''}${t.text}`);
    }
    if (silent.size) {
      warnings.push(
        `${silent.size} word(s) romanise to no letters and are not aligned: ${[...silent.values()]
          .slice(0, 5)
          .join(' ')}`,
      );
    }
    return { units, route: 'romanised', warnings };
  }

  async alignWindow(req: WindowRequest): Promise<UnitSpan[]> {
    const { em, shift } = await this.emissionsFor(req.samples, req.onProgress);
    return this.alignEmissions(em, req.units, {
      offset: req.offset + shift,
      garbage: req.garbage,
      warn: req.warn,
    });
  }

  /**
   * Spans of the units in emissions already computed (times from the first frame, plus `offset`). For a
   * caller that reads a long source window by window (emissions.ts) rather than holding its samples.
   */
  alignEmissions(
    em: Emissions,
    units: Unit[],
    opts: { offset: number; garbage: boolean; warn?: (message: string) => void },
  ): UnitSpan[] {
    const spelled = units.flatMap((u, i) => (u.prons.length ? [i] : []));
    if (spelled.length === 0) return [];
    const ids = spelled.map((i) => units[i]!.prons[0]!.map((c) => letterId(c)!));
    const graph = buildCtcGraph(ids, { star: opts.garbage });
    const path = ctcViterbi(em, graph, {
      bandSeconds: this.opts.bandSeconds ?? 120,
      firstLetter: FIRST_LETTER,
    });
    if (path.touchedBand) {
      opts.warn?.(
        'the alignment path reached the edge of its search band: the transcript and audio may not match',
      );
    }
    const at = (t: number): number => round(t + opts.offset);
    return ctcWordSpans(em, graph, path.states, this.opts.spans)
      .filter((s) => s.found)
      .map((s) => ({
        unit: spelled[s.word]!,
        start: at(s.start),
        end: at(s.end),
        confidence: s.confidence,
        phones: s.letters.map((l) => ({
          phone: MMS_VOCAB[l.label]!,
          start: at(l.start),
          end: at(l.end),
          confidence: l.confidence,
        })),
      }));
  }

  /** The model's emissions for a source read window by window (emissions.ts), with the export's settings. */
  emissions(source: SampleSource, onProgress?: (done: number, total: number) => void): Promise<Emissions> {
    return computeEmissions(this.session, source, { ...this.opts.emission, onProgress });
  }

  async recognise(samples: Float32Array, units: Unit[]): Promise<Recognition> {
    const { em } = await this.emissionsFor(samples);
    return this.recogniseEmissions(em, units);
  }

  /** Greedy decoding of the emissions, its letters compared with the units' (word breaks play no part). */
  recogniseEmissions(em: Emissions, units: Unit[]): Recognition {
    const hyp = greedyDecode(em, { firstLetter: FIRST_LETTER })
      .flat()
      .map((id) => MMS_VOCAB[id]!);
    return scoreRecognition(units, hyp, GREEDY_METHOD);
  }

  /** MMS places romanised letters: the letter is both labels (no IPA is known). */
  phoneTier(_units: Unit[], spans: UnitSpan[]): PhoneTiming[] {
    return spans.flatMap((s) =>
      s.phones.map((p) => ({
        phone: p.phone,
        model_phone: p.phone,
        start: p.start,
        end: p.end,
        confidence: p.confidence,
      })),
    );
  }

  /**
   * Emissions of `samples`, and the seconds from their first sample to their first frame: cut from the
   * last emissions when `samples` lies inside the samples those were computed for (a subarray of them),
   * else computed.
   */
  private async emissionsFor(
    samples: Float32Array,
    onProgress?: (done: number) => void,
  ): Promise<{ em: Emissions; shift: number }> {
    const last = this.last;
    if (last && last.samples.buffer === samples.buffer) {
      const a = (samples.byteOffset - last.samples.byteOffset) / Float32Array.BYTES_PER_ELEMENT;
      if (a >= 0 && a + samples.length <= last.samples.length) {
        const first = Math.ceil(a / FRAME_STRIDE);
        const end = Math.min(last.em.frames, first + wav2vec2Frames(samples.length));
        if (end > first) {
          return {
            em: sliceEmissions(last.em, first, end),
            shift: (first * FRAME_STRIDE - a) / SAMPLE_RATE,
          };
        }
      }
    }
    // The model is most of the work: its windows take the first 80 % of the progress.
    const em = await this.emissions(
      arraySource(samples),
      onProgress ? (done, total) => onProgress((0.8 * done) / total) : undefined,
    );
    this.last = { samples, em };
    return { em, shift: 0 };
  }
}
