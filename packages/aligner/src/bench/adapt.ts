// `npm run bench -- --mode adapt`: model adaptation measured where it matters, on speakers or voices the
// adaptation never heard (issue 31). English: timit-dev's eight speakers in two halves (two women and two
// men each); adapt on one half, align the other with and without the adapted model; then the halves
// swapped. Arabic: adapt on the generated synthetic sets (eSpeak voices +m1 +m2 +m4 +m5 +m6 +f1 +f4 +f5),
// align ar-synthetic (voices +m3 +f3 +m7 +f2, vowelled and plain) and the VoxAngeles Tunisian words (real
// speakers). Flags: --only en|ar, --iterations N, --tau N, --tau-weights N, --variances yes.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { align } from '../engine.ts';
import { adaptModel } from '../acoustic/hmm/adapt/corpus.ts';
import type { AdaptItem, AdaptReport } from '../acoustic/hmm/adapt/corpus.ts';
import { arg, isIpa, loadSet, score, setDir } from './common.ts';
import type { RefUtt } from './common.ts';
import { ensureSynthSets } from './synth.ts';

const HALVES: [string[], string[]] = [
  ['dr1-fvmh0', 'dr2-marc0', 'dr3-falk0', 'dr4-maeb0'],
  ['dr1-mcpm0', 'dr2-faem0', 'dr3-madc0', 'dr4-falr0'],
];

interface Scored {
  words: number;
  mean: number | null;
  within20: number | null;
  within50: number | null;
  approximated: number;
  phones: number;
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

function row(label: string, before: Scored, after: Scored): string {
  const gain = before.mean !== null && after.mean !== null ? (before.mean - after.mean).toFixed(1) : '-';
  const share = (s: Scored) => (s.phones ? `${((100 * s.approximated) / s.phones).toFixed(0)} %` : '-');
  return `| ${label} | ${before.words} | ${f1(before.mean)} | ${f1(after.mean)} | ${gain} | ${f1(before.within20)} → ${f1(after.within20)} | ${f1(before.within50)} → ${f1(after.within50)} | ${share(before)} → ${share(after)} |`;
}

function corpusLine(label: string, r: AdaptReport, seconds: number): string {
  const m = r.manifest;
  const ll = m.iterations.map((i) => i.logLikelihood.toFixed(3)).join(' → ');
  return `${label}: ${m.corpus.recordings} recordings, ${m.corpus.seconds.toFixed(0)} s (${m.corpus.frames} speech frames); ${m.iterations.length - 1} re-estimations, log-likelihood per frame ${ll}; ${m.moved} of ${m.gaussians} Gaussians moved; ${m.extraPhones.length ? `phones of its own: ${m.extraPhones.map((e) => e.ipa).join(' ')}` : 'no phones added'}; ${seconds.toFixed(0)} s to adapt${r.skipped.length ? `; ${r.skipped.length} recordings skipped` : ''}`;
}

const items = (utts: RefUtt[], plain = false): AdaptItem[] =>
  utts.map((u) => ({
    audio: u.audio,
    text: plain && u.text_plain ? u.text_plain : u.text,
    inputKind: isIpa(u) ? 'ipa' : 'orthography',
  }));

export async function adaptMode(): Promise<{ title: string; lines: string[] }> {
  const only = arg('only');
  const maxIterations = arg('iterations') ? Number(arg('iterations')) : undefined;
  const map = {
    tauGaussian: arg('tau') ? Number(arg('tau')) : undefined,
    tauWeights: arg('tau-weights') ? Number(arg('tau-weights')) : undefined,
    variances: arg('variances') === 'yes',
  };
  const work = mkdtempSync(join(tmpdir(), 'tz-adapt-models-'));
  const lines: string[] = [];
  const header = [
    '| held apart | words | mean ms before | after | gain ms | ≤20 ms % | ≤50 ms % | phones approximated |',
    '|---|---|---|---|---|---|---|---|',
  ];
  try {
    if (only !== 'ar') {
      const timit = loadSet('timit-dev');
      const rows: string[] = [];
      for (const [k, [train, test]] of [
        [0, HALVES],
        [1, [HALVES[1], HALVES[0]]],
      ] as [number, [string[], string[]]][]) {
        const of = (spk: string[]) => timit.filter((u) => spk.some((s) => u.uid.startsWith(`${s}_`)));
        const out = join(work, `timit-${k}`);
        const t0 = performance.now();
        const r = await adaptModel(items(of(train)), { lang: 'en', out, maxIterations, map });
        lines.push(corpusLine(`English, adapted on ${train.join(', ')}`, r, (performance.now() - t0) / 1000));
        const before = await scoreUtts('timit-dev', of(test), undefined);
        const after = await scoreUtts('timit-dev', of(test), out);
        rows.push(row(`timit-dev ${test.join(', ')}`, before, after));
      }
      lines.push('', ...header, ...rows, '');
    }
    if (only !== 'en') {
      await ensureSynthSets();
      const corpus = [
        ...items(loadSet('synth-ar')),
        ...items(loadSet('synth-ar-plain')),
        ...items(loadSet('synth-ipa')),
      ];
      const out = join(work, 'arabic');
      const t0 = performance.now();
      const r = await adaptModel(corpus, { lang: 'ar', out, maxIterations, map });
      lines.push(
        corpusLine(
          'Arabic, adapted on synth-ar, synth-ar-plain, synth-ipa',
          r,
          (performance.now() - t0) / 1000,
        ),
      );
      const rows: string[] = [];
      const ar = loadSet('ar-synthetic');
      rows.push(
        row(
          'ar-synthetic (vowelled)',
          await scoreUtts('ar-synthetic', ar, undefined),
          await scoreUtts('ar-synthetic', ar, out),
        ),
      );
      rows.push(
        row(
          'ar-synthetic (text_plain)',
          await scoreUtts('ar-synthetic', ar, undefined, true),
          await scoreUtts('ar-synthetic', ar, out, true),
        ),
      );
      const vox = loadSet('ar-voxangeles-aeb');
      rows.push(
        row(
          'ar-voxangeles-aeb (IPA)',
          await scoreUtts('ar-voxangeles-aeb', vox, undefined),
          await scoreUtts('ar-voxangeles-aeb', vox, out),
        ),
      );
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
