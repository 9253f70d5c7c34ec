// Shared by the bench runner and its modes: eval-set location, loading and scoring with score.py.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

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

export function loadSet(dir: string, set: string): RefUtt[] {
  return readdirSync(join(dir, set))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const r = JSON.parse(readFileSync(join(dir, set, f), 'utf8')) as Omit<RefUtt, 'uid'>;
      return { ...r, uid: f.slice(0, -5), audio: join(dir, set, r.audio) };
    });
}

export function score(refDir: string, hypDir: string): Record<string, number | null> {
  const r = spawnSync('python3', [join(evalDir(), 'score.py'), refDir, hypDir, '--json'], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`score.py failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { sets: Record<string, Record<string, number | null>> };
  return Object.values(out.sets)[0]!;
}
