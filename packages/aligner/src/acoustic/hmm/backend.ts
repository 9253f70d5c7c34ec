// The `hmm` back-end: CMU Sphinx PTM acoustic models run by soundswallower's finite-state-grammar search.
// Pronunciations come from the model's dictionary, else from eSpeak NG IPA mapped onto the model's phones.
import type {
  AcousticBackend,
  PhoneSpan,
  Precision,
  Recognition,
  Unit,
  UnitSpan,
  WindowRequest,
} from '../backend.ts';
import { buildGrammar } from '../../align/grammar.ts';
import type { GrammarUnit } from '../../align/grammar.ts';
import { HmmDecoder } from './decoder.ts';
import type { HmmSegment } from './decoder.ts';
import { resolveHmmModel } from './models.ts';
import type { ModelFamily } from './models.ts';
import { ipaToModelPhones } from './phone-map.ts';
import { recognisePhones } from './recognise.ts';

const decoders = new Map<string, Promise<HmmDecoder>>();

export function loadDecoder(family: ModelFamily, band: 'full' | 'narrow' = 'full'): Promise<HmmDecoder> {
  const spec = resolveHmmModel(family, band);
  let d = decoders.get(spec.id);
  if (!d) {
    d = HmmDecoder.load(spec);
    decoders.set(spec.id, d);
  }
  return d;
}

/** Sub-frame shifts (in samples at 16 kHz) whose alignments are averaged: 10 ms frames quantise boundaries. */
const SHIFTS: Record<Precision, number[]> = { standard: [0], high: [0, 80], ultra: [0, 40, 80, 120] };
const SETTINGS: Record<Precision, { beam: number; wbeam: number; pbeam: number }> = {
  standard: { beam: 1e-48, wbeam: 7e-29, pbeam: 1e-48 },
  high: { beam: 1e-64, wbeam: 1e-40, pbeam: 1e-64 },
  ultra: { beam: 1e-80, wbeam: 1e-50, pbeam: 1e-80 },
};

export type G2p = (tokens: string[], lang: string) => Promise<string[][]>;

export class HmmBackend implements AcousticBackend {
  readonly name = 'hmm' as const;
  readonly version = 'soundswallower-0.6.3';

  constructor(
    readonly decoder: HmmDecoder,
    private readonly g2p: G2p | null,
  ) {}

  get model(): string {
    return this.decoder.spec.id;
  }

  async pronounce(
    tokens: { text: string; wordIndex: number }[],
    lang: string,
    inputKind: 'orthography' | 'ipa',
  ) {
    const warnings: string[] = [];
    const routes = new Set<string>();
    const units: Unit[] = tokens.map((t, i) => ({
      tokenIndex: i,
      wordIndex: t.wordIndex,
      text: t.text,
      prons: [],
    }));
    const sameLanguage =
      this.decoder.spec.family === lang.slice(0, 2) ||
      (this.decoder.spec.family === 'en' && lang === 'eng') ||
      (this.decoder.spec.family === 'fr' && lang === 'fra');
    const needIpa: number[] = [];
    for (const u of units) {
      if (inputKind === 'ipa') {
        u.prons = [ipaToModelPhones(u.text, this.decoder.spec.family)].filter((p) => p.length > 0);
        routes.add('ipa-input');
        continue;
      }
      if (sameLanguage) {
        const prons = this.decoder.lookup(u.text.toLowerCase());
        if (prons.length) {
          u.prons = prons.filter((p) => p.every((ph) => this.decoder.phones.has(ph)));
          routes.add('dictionary');
          continue;
        }
      }
      needIpa.push(u.tokenIndex);
    }
    if (needIpa.length && this.g2p) {
      const ipa = await this.g2p(
        needIpa.map((i) => units[i]!.text),
        lang,
      );
      needIpa.forEach((ui, k) => {
        const phones = (ipa[k] ?? []).join(' ');
        const mapped = ipaToModelPhones(phones, this.decoder.spec.family);
        if (mapped.length) units[ui]!.prons = [mapped];
      });
      routes.add('espeak-ipa');
    }
    for (const u of units) if (u.prons.length === 0) warnings.push(`no pronunciation for "${u.text}"`);
    return { units, route: [...routes].join('+') || 'none', warnings };
  }

  alignWindow(req: WindowRequest): UnitSpan[] {
    this.decoder.configure(SETTINGS[req.precision]);
    const runs: UnitSpan[][] = [];
    for (const shift of SHIFTS[req.precision]) {
      const spans = this.alignOnce(req, shift);
      if (spans) runs.push(spans);
    }
    if (runs.length === 0) return [];
    return averageRuns(runs);
  }

  private alignOnce(req: WindowRequest, shift: number): UnitSpan[] | null {
    const usable = req.units.map((u, i) => ({ u, i })).filter(({ u }) => u.prons.length > 0);
    const names = usable.map(({ u }) => u.prons.map((p) => this.decoder.wordFor(p)));
    const gunits: GrammarUnit[] = names.map((alternatives) => ({ alternatives }));
    const jsgf = buildGrammar(gunits, { garbage: [], garbageWeight: 0, openEnd: req.openEnd });
    let samples = req.samples;
    if (shift > 0) {
      samples = new Float32Array(req.samples.length + shift);
      samples.set(req.samples, shift);
    }
    const result = this.decoder.run(samples, jsgf);
    if (!result) return null;
    const off = req.offset - shift / 16000;
    const spans: UnitSpan[] = [];
    let k = 0;
    for (const seg of result.w ?? []) {
      if (!seg.t.startsWith('P_')) continue;
      while (k < names.length && !names[k]!.includes(seg.t.replace(/\(\d+\)$/, ''))) k++;
      if (k >= names.length) break;
      spans.push(toSpan(usable[k]!.i, seg, off));
      k++;
    }
    return spans;
  }

  recognise(samples: Float32Array, units: Unit[]): Recognition {
    return recognisePhones(this.decoder, samples, units);
  }
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

function averageRuns(runs: UnitSpan[][]): UnitSpan[] {
  const base = runs[0]!;
  return base.map((span) => {
    const same = runs.map((r) => r.find((s) => s.unit === span.unit)).filter((s): s is UnitSpan => !!s);
    const mean = (f: (s: UnitSpan) => number) => round(same.reduce((a, s) => a + f(s), 0) / same.length);
    const phones = span.phones.map((p, pi) => {
      const ps = same.map((s) => s.phones[pi]).filter((q): q is PhoneSpan => !!q && q.phone === p.phone);
      const m = (f: (q: PhoneSpan) => number) => round(ps.reduce((a, q) => a + f(q), 0) / ps.length);
      return {
        phone: p.phone,
        start: m((q) => q.start),
        end: m((q) => q.end),
        confidence: m((q) => q.confidence),
      };
    });
    return {
      unit: span.unit,
      start: mean((s) => s.start),
      end: mean((s) => s.end),
      confidence: mean((s) => s.confidence),
      phones,
    };
  });
}
