// `npm run bench -- --mode adapt`: model adaptation measured where it matters, on speakers or voices the
// adaptation never heard (issue 31). English: timit-dev's eight speakers in two halves (two women and two
// men each); adapt on one half, align the other with and without the adapted model; then the halves
// swapped. Arabic: adapt on the generated synthetic sets (eSpeak voices +m1 +m2 +m4 +m5 +m6 +f1 +f4 +f5),
// align ar-synthetic (voices +m3 +f3 +m7 +f2, vowelled and plain) and the VoxAngeles Tunisian words (real
// speakers).
//
// Two conditions, as the platform's corpus can hold them: the adaptation half's recordings with their
// transcripts only, and the same recordings as hand-corrected revisions (their reference word timings,
// and for timit-dev the phones too, given as the person's). The held-apart half only ever gets its
// transcripts.
//
// Flags: --only en|ar, --conditions transcripts,corrected, --iterations N, --tau N, --tau-weights N,
// --variances yes, --mllr none|global|speech-silence|broad, --map-means no, --keep-base N, --edges no,
// --phones no (corrected timit-dev without its phones), --before FILE (keep the unadapted scores in FILE
// and read them from it on the next run: they do not change between settings), --keep-models DIR (the
// adapted models are copied there).
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { align } from '../engine.ts';
import { adaptModel } from '../acoustic/hmm/adapt/corpus.ts';
import type { AdaptItem, AdaptOptions, AdaptReport, FixedWord } from '../acoustic/hmm/adapt/corpus.ts';
import type { MllrClasses } from '../acoustic/hmm/adapt/mllr.ts';
import { loadDecoder } from '../acoustic/hmm/backend.ts';
import type { HmmDecoder } from '../acoustic/hmm/decoder.ts';
import { arg, isIpa, loadSet, score, setDir } from './common.ts';
import type { RefUtt } from './common.ts';
import { ensureSynthSets } from './synth.ts';

const HALVES: [string[], string[]] = [
  ['dr1-fvmh0', 'dr2-marc0', 'dr3-falk0', 'dr4-maeb0'],
  ['dr1-mcpm0', 'dr2-faem0', 'dr3-madc0', 'dr4-falr0'],
];

type Condition = 'transcripts' | 'corrected';

interface Scored {
  words: number;
  mean: number | null;
  within20: number | null;
  within50: number | null;
  approximated: number;
  phones: number;
}

/** The unadapted scores, kept in --before FILE between runs of different settings. */
async function unadapted(set: string, utts: RefUtt[], plain = false): Promise<Scored> {
  const file = arg('before');
  const key = `${set}:${plain ? 'plain' : 'text'}:${utts.map((u) => u.uid).join(',')}`;
  const cache = (file && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as Record<
    string,
    Scored
  >;
  if (cache[key]) return cache[key];
  const s = await scoreUtts(set, utts, undefined, plain);
  if (file) writeFileSync(file, JSON.stringify({ ...cache, [key]: s }));
  return s;
}

/** Aligns `utts` (with `model` or the base), scores them against their set's references. */
async function scoreUtts(
  set: string,
  utts: RefUtt[],
  model: string | undefined,
  plain = false,
): Promise<Scored> {
  const refDir = mkdtempSync(join(tmpdir(), 'tz-adapt-ref-'));
  const hypDir = mkdtempSync(join(tmpdir(), 'tz-adapt-hyp-'));
  let approximated = 0;
  let phones = 0;
  try {
    for (const u of utts) {
      symlinkSync(join(setDir(set), `${u.uid}.json`), join(refDir, `${u.uid}.json`));
      const text = plain && u.text_plain ? u.text_plain : u.text;
      const r = await align(u.audio, text, {
        lang: u.lang,
        precision: 'high',
        inputKind: isIpa(u) ? 'ipa' : 'orthography',
        recognition: false,
        engine: 'hmm',
        model,
      });
      for (const w of r.words)
        for (const p of w.phones ?? []) {
          phones++;
          if (p.approximated) approximated++;
        }
      writeFileSync(join(hypDir, `${u.uid}.json`), JSON.stringify(r));
    }
    const s = score(refDir, hypDir);
    process.stderr.write(
      `${set}${plain ? ' (plain)' : ''} ${model ? 'adapted' : 'unadapted'}: ${s.mean_ms} ms\n`,
    );
    return {
      words: Number(s.ref_words ?? 0),
      mean: s.mean_ms ?? null,
      within20: s.pct_within_20ms ?? null,
      within50: s.pct_within_50ms ?? null,
      approximated,
      phones,
    };
  } finally {
    rmSync(refDir, { recursive: true, force: true });
    rmSync(hypDir, { recursive: true, force: true });
  }
}

const f1 = (x: number | null) => (x === null ? '-' : x.toFixed(1));

function row(label: string, corpus: string, before: Scored, after: Scored): string {
  const gain = before.mean !== null && after.mean !== null ? (before.mean - after.mean).toFixed(1) : '-';
  const share = (s: Scored) => (s.phones ? `${((100 * s.approximated) / s.phones).toFixed(0)} %` : '-');
  return `| ${label} | ${corpus} | ${before.words} | ${f1(before.mean)} → ${f1(after.mean)} | ${gain} | ${f1(before.within20)} → ${f1(after.within20)} | ${f1(before.within50)} → ${f1(after.within50)} | ${share(before)} → ${share(after)} |`;
}

function corpusLine(label: string, r: AdaptReport, seconds: number): string {
  const m = r.manifest;
  const ll = m.iterations.map((i) => i.logLikelihood.toFixed(3)).join(' → ');
  const truth = m.corpus.groundTruthWords
    ? `; ${m.corpus.groundTruthWords} hand-placed words (${m.corpus.groundTruthPhones ?? 0} phones in their segments)`
    : '';
  const mllr = m.mllr
    ? `; MLLR ${m.mllr.classes}: ${m.mllr.transforms.map((t) => `${t.name} ${t.frames}${t.own ? '' : ' (global)'}`).join(', ')}`
    : '';
  const edges = m.edges ? `; word edges learnt from ${m.edges.words} words` : '';
  return `${label}: ${m.corpus.recordings} recordings, ${m.corpus.seconds.toFixed(0)} s (${m.corpus.frames} frames)${truth}; ${m.iterations.length - 1} re-estimations, log-likelihood per frame ${ll}; ${m.moved} of ${m.gaussians} Gaussians moved${mllr}${edges}; ${m.extraPhones.length ? `phones of its own: ${m.extraPhones.map((e) => e.ipa).join(' ')}` : 'no phones added'}; ${seconds.toFixed(0)} s to adapt${r.skipped.length ? `; ${r.skipped.length} recordings skipped` : ''}`;
}

/** TIMIT's phones as CMU ARPAbet (closures and releases joined; q and epi given to the next phone). */
const TIMIT: Record<string, string> = {
  iy: 'IY',
  ih: 'IH',
  eh: 'EH',
  ey: 'EY',
  ae: 'AE',
  aa: 'AA',
  aw: 'AW',
  ay: 'AY',
  ah: 'AH',
  ao: 'AO',
  oy: 'OY',
  ow: 'OW',
  uh: 'UH',
  uw: 'UW',
  ux: 'UW',
  er: 'ER',
  ax: 'AH',
  ix: 'IH',
  axr: 'ER',
  'ax-h': 'AH',
  jh: 'JH',
  ch: 'CH',
  b: 'B',
  d: 'D',
  g: 'G',
  p: 'P',
  t: 'T',
  k: 'K',
  dx: 'T',
  s: 'S',
  sh: 'SH',
  z: 'Z',
  zh: 'ZH',
  f: 'F',
  th: 'TH',
  v: 'V',
  dh: 'DH',
  m: 'M',
  n: 'N',
  ng: 'NG',
  em: 'M',
  en: 'N',
  eng: 'NG',
  nx: 'N',
  l: 'L',
  el: 'L',
  r: 'R',
  w: 'W',
  y: 'Y',
  hh: 'HH',
  hv: 'HH',
  bcl: 'B',
  dcl: 'D',
  gcl: 'G',
  pcl: 'P',
  tcl: 'T',
  kcl: 'K',
};
const RELEASE: Record<string, string[]> = {
  bcl: ['b'],
  dcl: ['d', 'jh'],
  gcl: ['g'],
  pcl: ['p'],
  tcl: ['t', 'ch'],
  kcl: ['k'],
};

/** A reference word's phones (TIMIT labels) as ARPAbet segments; null when none lie inside it. */
function timitSegments(
  u: RefUtt,
  w: { start: number; end: number },
): { phone: string; start: number; end: number }[] | null {
  const inside = (u.phones ?? []).filter((p) => {
    const mid = (p.start + p.end) / 2;
    return mid > w.start && mid < w.end;
  });
  const out: { phone: string; start: number; end: number }[] = [];
  let carry: number | null = null;
  for (let i = 0; i < inside.length; i++) {
    const p = inside[i]!;
    if (p.p === 'q' || p.p === 'epi' || p.p === 'pau' || p.p === 'h#') {
      carry ??= p.start;
      continue;
    }
    const label = TIMIT[p.p];
    if (!label) return null;
    let end = p.end;
    const next = inside[i + 1];
    if (RELEASE[p.p] && next && RELEASE[p.p]!.includes(next.p)) {
      end = next.end;
      i++;
      const joined = TIMIT[next.p]!;
      out.push({ phone: joined, start: carry ?? p.start, end });
    } else out.push({ phone: label, start: carry ?? p.start, end });
    carry = null;
  }
  return out.length ? out : null;
}

/**
 * The reference words as a corrected revision would give them: each word's times, and (when the set has
 * phones and `phones`) its phones on the model's labels — the dictionary pronunciation with as many phones
 * as the reference, the one sharing most labels with it — else none (the word is taken whole).
 */
export function fixedWordsOf(u: RefUtt, decoder: HmmDecoder | null): FixedWord[] {
  return u.words.map((w) => {
    const fixed: FixedWord = { text: w.w, start: w.start, end: w.end };
    if (!decoder || !u.phones) return fixed;
    const segs = timitSegments(u, w);
    if (!segs) return fixed;
    const prons = decoder.lookup(w.w.toLowerCase()).filter((p) => p.length === segs.length);
    if (!prons.length) return fixed;
    const same = (p: string[]) => p.filter((x, i) => x === segs[i]!.phone).length;
    const pron = prons.reduce((a, b) => (same(b) > same(a) ? b : a));
    return { ...fixed, phones: segs.map((s, i) => ({ phone: pron[i]!, start: s.start, end: s.end })) };
  });
}

const items = (
  utts: RefUtt[],
  cond: Condition,
  decoder: HmmDecoder | null = null,
  plain = false,
): AdaptItem[] =>
  utts.map((u) => ({
    audio: u.audio,
    text: plain && u.text_plain ? u.text_plain : u.text,
    inputKind: isIpa(u) ? 'ipa' : 'orthography',
    ...(cond === 'corrected' ? { fixedWords: fixedWordsOf(u, decoder), fixedAll: true } : {}),
  }));

export async function adaptMode(): Promise<{ title: string; lines: string[] }> {
  const only = arg('only');
  const conditions = (arg('conditions') ?? 'transcripts,corrected').split(',') as Condition[];
  const options: Omit<AdaptOptions, 'lang' | 'out'> = {
    maxIterations: arg('iterations') !== undefined ? Number(arg('iterations')) : undefined,
    map: {
      tauGaussian: arg('tau') ? Number(arg('tau')) : undefined,
      tauWeights: arg('tau-weights') ? Number(arg('tau-weights')) : undefined,
      variances: arg('variances') === 'yes',
    },
    mllr: arg('mllr') as MllrClasses | undefined,
    mapMeans: arg('map-means') !== 'no',
    keepBase: arg('keep-base') ? Number(arg('keep-base')) : undefined,
    edges: arg('edges') !== 'no',
    // the held-apart sets are aligned at high: the correction is learnt there too
    precision: 'high',
  };
  const work = mkdtempSync(join(tmpdir(), 'tz-adapt-models-'));
  const lines: string[] = [];
  const header = [
    '| held apart | adapted on | words | mean ms unadapted → adapted | gain ms | ≤20 ms % | ≤50 ms % | phones approximated |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const adapt = async (label: string, corpus: AdaptItem[], lang: string, out: string) => {
    const t0 = performance.now();
    const r = await adaptModel(corpus, { ...options, lang, out });
    const keep = arg('keep-models');
    if (keep) cpSync(out, join(keep, basename(out)), { recursive: true });
    lines.push(corpusLine(label, r, (performance.now() - t0) / 1000));
    process.stderr.write(`${lines[lines.length - 1]}\n`);
    return r;
  };
  try {
    if (only !== 'ar') {
      const timit = loadSet('timit-dev');
      const decoder = arg('phones') === 'no' ? null : await loadDecoder('en');
      const rows: string[] = [];
      for (const [k, [train, test]] of [
        [0, HALVES],
        [1, [HALVES[1], HALVES[0]]],
      ] as [number, [string[], string[]]][]) {
        const of = (spk: string[]) => timit.filter((u) => spk.some((s) => u.uid.startsWith(`${s}_`)));
        const before = await unadapted('timit-dev', of(test));
        for (const cond of conditions) {
          const out = join(work, `timit-${k}-${cond}`);
          await adapt(
            `English, ${cond}, adapted on ${train.join(', ')}`,
            items(of(train), cond, decoder),
            'en',
            out,
          );
          const after = await scoreUtts('timit-dev', of(test), out);
          rows.push(row(`timit-dev ${test.join(' ')}`, `the other four, ${cond}`, before, after));
          rmSync(out, { recursive: true, force: true });
        }
      }
      lines.push('', ...header, ...rows, '');
    }
    if (only !== 'en') {
      await ensureSynthSets();
      const sets = [loadSet('synth-ar'), loadSet('synth-ar-plain'), loadSet('synth-ipa')];
      const ar = loadSet('ar-synthetic');
      const vox = loadSet('ar-voxangeles-aeb');
      const held = [
        { label: 'ar-synthetic (vowelled)', set: 'ar-synthetic', utts: ar, plain: false },
        { label: 'ar-synthetic (text_plain)', set: 'ar-synthetic', utts: ar, plain: true },
        { label: 'ar-voxangeles-aeb (IPA)', set: 'ar-voxangeles-aeb', utts: vox, plain: false },
      ];
      const before = [];
      for (const h of held) before.push(await unadapted(h.set, h.utts, h.plain));
      const rows: string[] = [];
      for (const cond of conditions) {
        const out = join(work, `arabic-${cond}`);
        await adapt(
          `Arabic, ${cond}, adapted on synth-ar, synth-ar-plain, synth-ipa`,
          sets.flatMap((s) => items(s, cond)),
          'ar',
          out,
        );
        for (let i = 0; i < held.length; i++) {
          const h = held[i]!;
          rows.push(
            row(
              h.label,
              `synthetic voices, ${cond}`,
              before[i]!,
              await scoreUtts(h.set, h.utts, out, h.plain),
            ),
          );
        }
        rmSync(out, { recursive: true, force: true });
      }
      lines.push('', ...header, ...rows, '');
    }
    return {
      title: `Model adaptation, held-apart speakers and voices (${new Date().toISOString().slice(0, 10)})`,
      lines,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
