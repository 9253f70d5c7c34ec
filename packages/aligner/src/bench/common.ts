// Shared by the bench runner and its modes: eval-set location, loading and scoring with score.py.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { decodeAudio, SAMPLE_RATE } from '../audio/decode.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
/** The CLI as a user runs it (compiled to dist/ on its first run). */
export const CLI = join(dirname(fileURLToPath(import.meta.url)), '../../bin/tazamun.mjs');

/** Seconds from spawning the CLI to its usage text, median of three runs (a first run builds dist/). */
export function cliStartup(): number {
  spawnSync(process.execPath, [CLI, '--help']);
  const times = [0, 1, 2].map(() => {
    const t = performance.now();
    spawnSync(process.execPath, [CLI, '--help']);
    return (performance.now() - t) / 1000;
  });
  return times.sort((a, b) => a - b)[1]!;
}

export interface RefUtt {
  uid: string;
  audio: string;
  text: string;
  text_plain?: string;
  text_is?: string;
  lang: string;
  duration: number;
  words: { w: string; start: number; end: number }[];
  phones?: { p: string; start: number; end: number }[];
}

export function arg(name: string, def?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
}
export const flag = (name: string): boolean => process.argv.includes(`--${name}`);

export function evalDir(): string {
  const dir = resolve(arg('eval') ?? join(REPO_ROOT, '../shared/eval'));
  if (!existsSync(join(dir, 'score.py'))) throw new Error(`eval set not found at ${dir} (give --eval DIR)`);
  return dir;
}

/** Where a set lives: the generated synthetic sets (bench/synth.ts) under .cache, the others in eval/. */
export function setDir(set: string): string {
  return set.startsWith('synth-') ? join(synthDir(), set) : join(evalDir(), set);
}

export function synthDir(): string {
  return resolve(arg('synth') ?? join(REPO_ROOT, '.cache/synth-eval'));
}

/** Whether an utterance's transcript is IPA (VoxAngeles' `text_is`, the synthetic IPA set's). */
export const isIpa = (u: RefUtt): boolean => /^ipa/i.test(u.text_is ?? '');

export function loadSet(set: string): RefUtt[] {
  return readSet(setDir(set));
}

/** The utterances of the set in `dir`, in name order. */
export function readSet(dir: string): RefUtt[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const r = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Omit<RefUtt, 'uid'>;
      return { ...r, uid: f.slice(0, -5), audio: join(dir, r.audio) };
    });
}

export interface JoinedRecording {
  samples: Float32Array;
  /** the text of the utterances kept in it, one line each */
  text: string;
  /** their reference words, in the joined recording's time */
  words: RefUtt['words'];
  /** where each utterance begins (seconds), in the order joined */
  starts: number[];
}

/**
 * Utterances joined end to end into one recording (the long path), `readings` times over, with the text
 * (`field`: text_plain where an utterance has it) and the reference word times moved by each utterance's
 * place. `textLeftOut(i, count)`: the i-th of the `count` utterances joined is in the audio but its text
 * and reference words are not (speech the transcript leaves out).
 */
export async function joinRecordings(
  utts: readonly RefUtt[],
  opts: {
    readings?: number;
    textLeftOut?: (i: number, count: number) => boolean;
    field?: 'text' | 'text_plain';
  } = {},
): Promise<JoinedRecording> {
  const readings = opts.readings ?? 1;
  const decoded = await Promise.all(utts.map(async (u) => (await decodeAudio(u.audio)).samples));
  const samples = new Float32Array(decoded.reduce((a, x) => a + x.length, 0) * readings);
  const words: RefUtt['words'] = [];
  const lines: string[] = [];
  const starts: number[] = [];
  const count = utts.length * readings;
  let at = 0;
  for (let r = 0; r < readings; r++)
    utts.forEach((u, i) => {
      const x = decoded[i]!;
      const off = at / SAMPLE_RATE;
      starts.push(off);
      if (!opts.textLeftOut?.(r * utts.length + i, count)) {
        for (const w of u.words) words.push({ w: w.w, start: w.start + off, end: w.end + off });
        lines.push((opts.field === 'text_plain' ? u.text_plain : undefined) ?? u.text);
      }
      samples.set(x, at);
      at += x.length;
    });
  return { samples, text: lines.join('\n'), words, starts };
}

export function score(refDir: string, hypDir: string): Record<string, number | null> {
  const r = spawnSync('python3', [join(evalDir(), 'score.py'), refDir, hypDir, '--json'], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`score.py failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { sets: Record<string, Record<string, number | null>> };
  return Object.values(out.sets)[0]!;
}

/** A small seeded generator (mulberry32), so generated sets and printed noise figures repeat exactly. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
