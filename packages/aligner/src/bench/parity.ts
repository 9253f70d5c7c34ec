// `npm run bench -- --mode parity`: the engine on its own decoder against the same engine on the
// soundswallower decoder it replaced (TAZAMUN_DECODER=reference), same options, every dev set: the share
// of word boundaries the two put within 10 ms of each other, and each one's accuracy against the
// references. With --emulate, the new decoder runs with the old settings (TAZAMUN_EMULATE=pocketsphinx:
// pocketsphinx's contexts and beams, boundaries on frames). Flags: --sets, --limit N, --precision.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { align } from '../engine.ts';
import type { Precision } from '../acoustic/backend.ts';
import { arg, flag, isIpa, loadSet, score, setDir } from './common.ts';
import type { RefUtt } from './common.ts';

export interface ParityCount {
  boundaries: number;
  within10: number;
  within20: number;
  /** boundaries placed by one decoder and not the other */
  unmatched: number;
  sumAbsMs: number;
}

/** Word boundaries of two results of the same transcript, compared pairwise. */
export function compareBoundaries(a: AlignmentResult, b: AlignmentResult, into: ParityCount): void {
  a.words.forEach((w, i) => {
    const v = b.words[i];
    for (const key of ['start', 'end'] as const) {
      into.boundaries++;
      const x = w[key];
      const y = v?.[key] ?? null;
      if (x === null || y === null) {
        if (x !== y) {
          into.unmatched++;
        } else {
          into.within10++;
          into.within20++;
        }
        continue;
      }
      const d = Math.abs(x - y) * 1000;
      into.sumAbsMs += d;
      if (d <= 10 + 1e-6) into.within10++;
      if (d <= 20 + 1e-6) into.within20++;
    }
  });
}

export async function alignBoth(
  u: RefUtt,
  text: string,
  precision: Precision,
  emulate: boolean,
): Promise<{ own: AlignmentResult; ref: AlignmentResult; ownSeconds: number; refSeconds: number }> {
  const opts = {
    lang: u.lang,
    precision,
    inputKind: isIpa(u) ? ('ipa' as const) : ('orthography' as const),
    recognition: false,
    engine: 'hmm' as const,
    garbage: process.env.TZ_PARITY_GARBAGE !== '0',
  };
  const before = process.env.TAZAMUN_DECODER;
  const emulating = process.env.TAZAMUN_EMULATE;
  try {
    delete process.env.TAZAMUN_DECODER;
    if (emulate) process.env.TAZAMUN_EMULATE = 'pocketsphinx';
    else delete process.env.TAZAMUN_EMULATE;
    let t = performance.now();
    const own = await align(u.audio, text, opts);
    const ownSeconds = (performance.now() - t) / 1000;
    // The reference runs under the same settings as the decoder it is compared with: with --emulate, the
    // back-end's old settings (pocketsphinx's beams, no speaker adaptation; acoustic/hmm/backend.ts reads
    // TAZAMUN_EMULATE), which the engine used when soundswallower was its decoder.
    process.env.TAZAMUN_DECODER = 'reference';
    t = performance.now();
    const ref = await align(u.audio, text, opts);
    return { own, ref, ownSeconds, refSeconds: (performance.now() - t) / 1000 };
  } finally {
    if (before === undefined) delete process.env.TAZAMUN_DECODER;
    else process.env.TAZAMUN_DECODER = before;
    if (emulating === undefined) delete process.env.TAZAMUN_EMULATE;
    else process.env.TAZAMUN_EMULATE = emulating;
  }
}

export async function parityMode(): Promise<{ title: string; lines: string[] }> {
  const sets = (
    arg('sets') ??
    'timit-dev,emu-ae,ar-synthetic,ar-synthetic:plain,ar-voxangeles-aeb,fr-librivox-mfa,en-mfa-testdata'
  ).split(',');
  const limit = arg('limit') ? Number(arg('limit')) : Infinity;
  const precision = arg('precision', 'standard') as Precision;
  const lines = [
    '| set | boundaries | within 10 ms % | within 20 ms % | mean abs ms | placed by one only | own mean ms | reference mean ms | own RTF | reference RTF |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const total: ParityCount = { boundaries: 0, within10: 0, within20: 0, unmatched: 0, sumAbsMs: 0 };
  for (const spec of sets) {
    const [set, variant] = spec.split(':') as [string, string | undefined];
    const utts = loadSet(set).slice(0, limit);
    const c: ParityCount = { boundaries: 0, within10: 0, within20: 0, unmatched: 0, sumAbsMs: 0 };
    const ownDir = mkdtempSync(join(tmpdir(), `tz-parity-own-${set}-`));
    const refDir = mkdtempSync(join(tmpdir(), `tz-parity-ref-${set}-`));
    let ownT = 0;
    let refT = 0;
    let audio = 0;
    for (const u of utts) {
      const text = variant === 'plain' && u.text_plain ? u.text_plain : u.text;
      const r = await alignBoth(u, text, precision, flag('emulate'));
      compareBoundaries(r.own, r.ref, c);
      writeFileSync(join(ownDir, `${u.uid}.json`), JSON.stringify(r.own));
      writeFileSync(join(refDir, `${u.uid}.json`), JSON.stringify(r.ref));
      ownT += r.ownSeconds;
      refT += r.refSeconds;
      audio += r.own.audio.duration;
    }
    for (const k of Object.keys(total) as (keyof ParityCount)[]) total[k] += c[k];
    const own = score(setDir(set), ownDir);
    const ref = score(setDir(set), refDir);
    const pct = (n: number) => ((100 * n) / Math.max(1, c.boundaries)).toFixed(1);
    lines.push(
      `| ${spec} | ${c.boundaries} | ${pct(c.within10)} | ${pct(c.within20)} | ${(c.sumAbsMs / Math.max(1, c.boundaries - c.unmatched)).toFixed(1)} | ${c.unmatched} | ${own.mean_ms?.toFixed(1) ?? '-'} | ${ref.mean_ms?.toFixed(1) ?? '-'} | ${(ownT / audio).toFixed(3)} | ${(refT / audio).toFixed(3)} |`,
    );
  }
  const pct = (n: number) => ((100 * n) / Math.max(1, total.boundaries)).toFixed(1);
  lines.push(
    `| all | ${total.boundaries} | ${pct(total.within10)} | ${pct(total.within20)} | ${(total.sumAbsMs / Math.max(1, total.boundaries - total.unmatched)).toFixed(1)} | ${total.unmatched} | | | | |`,
  );
  return {
    title: `Parity with the soundswallower decoder (precision ${precision}, ${new Date().toISOString().slice(0, 10)})`,
    lines,
  };
}
