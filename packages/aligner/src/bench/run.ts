// `npm run bench`: runs the engine over the eval sets, writes hypothesis JSONs to a temp dir, scores them
// with the eval set's own score.py and prints (and optionally writes) the figures.
// Flags: --eval DIR (default ../shared/eval from the repo root), --sets a,b, --precision p, --plain (Arabic
// text_plain), --write-doc (docs/benchmarks.md section), --no-recognition, --limit N, --mode clean|long|hours|robust|wer|quality|peers|parity|adapt
// (peers: --echogarden DIR, --rounds N; see bench/peers.ts)
// (quality: --dump FILE, --raw for uncalibrated confidences; its default sets include the generated
// synth-ar, synth-ar-plain and synth-ipa, made by bench/synth.ts under .cache/synth-eval or --synth DIR)
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { arg, cliStartup, flag, isIpa, loadSet, score, setDir } from './common.ts';
import { align } from '../engine.ts';
import { loadDecoder } from '../acoustic/hmm/backend.ts';
import type { Precision } from '../acoustic/backend.ts';

export interface SetRun {
  set: string;
  variant: string;
  score: Record<string, number | null>;
  rtf: number;
  audioSeconds: number;
  wallSeconds: number;
  hypDir: string;
  confidences: { conf: number; err: number }[];
  /** the process's peak resident memory when the set ended (MB; it can only grow over a run) */
  peakRssMb: number;
}

export async function runSet(
  set: string,
  opts: { precision: Precision; plain?: boolean; limit?: number; recognition: boolean },
): Promise<SetRun> {
  const utts = loadSet(set).slice(0, opts.limit ?? Infinity);
  const hypDir = mkdtempSync(join(tmpdir(), `tz-bench-${set}-`));
  let wall = 0;
  let audioSeconds = 0;
  for (const u of utts) {
    const text = opts.plain && u.text_plain ? u.text_plain : u.text;
    const t0 = performance.now();
    const res = await align(u.audio, text, {
      lang: u.lang,
      precision: opts.precision,
      inputKind: isIpa(u) ? 'ipa' : 'orthography',
      recognition: opts.recognition,
      engine: (arg('engine', 'hmm') as 'hmm') ?? 'hmm',
    });
    wall += (performance.now() - t0) / 1000;
    audioSeconds += res.audio.duration;
    writeFileSync(join(hypDir, `${u.uid}.json`), JSON.stringify(res));
  }
  mkdirSync(hypDir, { recursive: true });
  const s = score(setDir(set), hypDir);
  return {
    set,
    variant: opts.plain ? 'text_plain' : 'text',
    score: s,
    rtf: wall / audioSeconds,
    audioSeconds,
    wallSeconds: wall,
    hypDir,
    confidences: [],
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

export const ALL_SETS = [
  'timit-dev',
  'emu-ae',
  'ar-synthetic',
  'ar-voxangeles-aeb',
  'fr-librivox-mfa',
  'en-mfa-testdata',
];

export function row(r: SetRun): string {
  const s = r.score;
  const f = (v: number | null | undefined, d = 1) => (v === null || v === undefined ? '-' : v.toFixed(d));
  return `| ${r.set}${r.variant === 'text' ? '' : ` (${r.variant})`} | ${s.ref_words} | ${s.matched_words} | ${f(s.mean_ms)} | ${f(s.median_ms)} | ${f(s.pct_within_10ms)} | ${f(s.pct_within_20ms)} | ${f(s.pct_within_50ms)} | ${f(s.pct_within_100ms)} | ${f(s.start_mean_ms)} | ${f(s.end_mean_ms)} | ${f(r.rtf, 4)} | ${f(r.peakRssMb, 0)} |`;
}

export const HEADER =
  '| set | words | matched | mean ms | median ms | <=10 % | <=20 % | <=50 % | <=100 % | start mean | end mean | RTF | peak RSS MB |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|';

async function main(): Promise<void> {
  const precision = (arg('precision', 'high') as Precision) ?? 'high';
  const mode = arg('mode', 'sets');
  if ((arg('sets') ?? (mode === 'quality' ? 'synth-' : '')).includes('synth-'))
    await (await import('./synth.ts')).ensureSynthSets();
  if (mode === 'quality') {
    const q = await import('./quality.ts');
    const r = await import('./quality-report.ts');
    const cases = await q.collectQuality((arg('sets') ?? q.QUALITY_SETS.join(',')).split(','), {
      limit: arg('limit') ? Number(arg('limit')) : undefined,
      calibration: flag('raw') ? 'none' : 'fitted',
      log: (line) => process.stderr.write(`${line}\r`),
    });
    const dump = arg('dump');
    if (dump) q.writeDump(dump, cases);
    console.log(r.qualityReport(cases).join('\n'));
    return;
  }
  if (mode !== 'sets') {
    const m = await import('./modes.ts');
    const report =
      mode === 'long'
        ? await m.longMode(precision, Number(arg('times', '10')))
        : mode === 'hours'
          ? await m.hoursMode(precision, Number(arg('hours', '3')))
          : mode === 'robust'
            ? await m.robustMode(precision)
            : mode === 'wer'
              ? await m.werMode(precision)
              : mode === 'peers'
                ? await (await import('./peers.ts')).peersMode()
                : mode === 'parity'
                  ? await (await import('./parity.ts')).parityMode()
                  : mode === 'adapt'
                    ? await (await import('./adapt.ts')).adaptMode()
                    : null;
    if (!report)
      throw new Error(
        `unknown --mode ${mode} (sets, long, hours, robust, wer, peers, parity, adapt, quality)`,
      );
    console.log(`## ${report.title}\n`);
    // table rows and blank lines are printed as they are, the rest as a list
    for (const l of report.lines) console.log(l === '' || l.startsWith('|') ? l : `- ${l}`);
    return;
  }
  const sets = (arg('sets') ?? ALL_SETS.join(',')).split(',');
  const limit = arg('limit') ? Number(arg('limit')) : undefined;
  const recognition = !flag('no-recognition');
  const runs: SetRun[] = [];
  const startup = cliStartup();
  const t0 = performance.now();
  await loadDecoder('en', 'full');
  const modelLoad = (performance.now() - t0) / 1000;
  console.log(HEADER);
  for (const set of sets) {
    const variants = set === 'ar-synthetic' ? [false, true] : [false];
    for (const plain of variants) {
      const r = await runSet(set, { precision, plain, limit, recognition });
      runs.push(r);
      console.log(row(r));
      if (flag('bias'))
        console.log(
          `  bias start ${r.score.start_bias_ms} ms, end ${r.score.end_bias_ms} ms, hyp ${r.hypDir}`,
        );
    }
  }
  const maxRss = process.resourceUsage().maxRSS / 1024;
  console.log(`peak RSS ${maxRss.toFixed(0)} MB, precision ${precision}`);
  console.log(
    `start-up: the CLI to its usage text ${startup.toFixed(2)} s (median of 3); the English model and decoder loaded in ${modelLoad.toFixed(2)} s (once per process or worker thread, outside the RTFs above)`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
