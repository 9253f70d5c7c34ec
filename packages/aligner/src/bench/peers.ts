// `npm run bench -- --mode peers`: Tazamun against other aligners on the same files, in the same sitting,
// each as its own process (start-up and decoding included), so the ratios hold whatever the load was.
// Peers: pocketsphinx 5's forced alignment, native (--pocketsphinx BIN: a build the user points at, one
// `pocketsphinx align` process per file with Debian's 16 kHz model, peers/pocketsphinx-native.py, once
// with the whole dictionary and once with each file's words only, the cheaper and fairer baseline) and its
// npm WASM build soundswallower (peers/pocketsphinx.mjs), and echogarden's dtw aligner
// (peers/echogarden.mjs, from an installation named by --echogarden DIR). A peer not given says so in its
// row; a native build given whose file or model is missing is an error. The model Tazamun ran is printed
// above the table (without Debian's 16 kHz model it is the npm one, which the native peer does not run).
// Flags: --sets (English sets, default timit-dev), --limit N, --rounds N (peers alternated, the order
// reversed every round), --precision (Tazamun's, default standard).
import { mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { CLI, arg, cliStartup, loadSet, score, setDir } from './common.ts';
import type { RefUtt } from './common.ts';

const HERE = dirname(fileURLToPath(import.meta.url));

/** A child's cost as the kernel counted it (python's RUSAGE_CHILDREN: CPU and peak RSS of that child). */
interface ProcessCost {
  wall: number;
  cpu: number;
  peakRssMb: number;
  stdout: string;
  status: number;
}

const MEASURE = `
import json, resource, subprocess, sys, time
t = time.monotonic()
r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
wall = time.monotonic() - t
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": u.ru_utime + u.ru_stime, "peakRssMb": u.ru_maxrss / 1024,
                  "stdout": r.stdout[-4000:], "status": r.returncode}))
`;

function measured(cmd: string[]): ProcessCost {
  const r = spawnSync('python3', ['-c', MEASURE, ...cmd], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`measuring ${cmd.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as ProcessCost;
}

interface PeerRun {
  peer: string;
  /** the acoustic model it ran (Tazamun's rows: the model its results name) */
  model?: string;
  cost: ProcessCost;
  /** seconds from process start until the model was ready (the child's own clock) */
  startup: number | null;
  /** seconds per file inside the process, the first file included */
  perFile: number[];
  score: Record<string, number | null>;
}

interface ChildReport {
  startup: number;
  perFile: number[];
  failed: number;
  /** CPU of the processes the child ran (a driver that spawns the peer per file reports theirs) */
  childCpu?: number;
  peakRssMb?: number;
}

function lastJson(stdout: string): ChildReport | null {
  const line = stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as ChildReport;
  } catch {
    return null;
  }
}

function runTazamun(set: string, utts: RefUtt[], precision: string, recognition = true): PeerRun {
  const work = mkdtempSync(join(tmpdir(), 'tz-peers-tz-'));
  const manifest = join(work, 'm.jsonl');
  writeFileSync(
    manifest,
    utts.map((u) => JSON.stringify({ id: u.uid, audio: u.audio, lang: u.lang, text: u.text })).join('\n'),
  );
  const out = join(work, 'out');
  // the compiled CLI a user runs: one worker thread, recognition pass on, the engine's defaults
  const cost = measured([
    process.execPath,
    CLI,
    'align',
    '--manifest',
    manifest,
    '--out-dir',
    out,
    '--jobs',
    '1',
    '--precision',
    precision,
    ...(recognition ? [] : ['--no-recognition']),
  ]);
  if (cost.status !== 0) throw new Error(`tazamun exited with ${cost.status}`);
  const results = readdirSync(out)
    .filter((f) => f.endsWith('.json'))
    .map(
      (f) =>
        JSON.parse(readFileSync(join(out, f), 'utf8')) as {
          metrics: { processing_time: number };
          engine: { model: string | null };
        },
    );
  const perFile = results.map((r) => r.metrics.processing_time);
  const startup = cliStartup();
  return {
    peer: `Tazamun (CLI batch, ${precision}${recognition ? '' : ', no recognition pass'})`,
    model: [...new Set(results.map((r) => r.engine.model ?? '?'))].join(', '),
    cost,
    startup,
    perFile,
    score: score(refDir(set, utts), out),
  };
}

function runChild(peer: string, script: string[], utts: RefUtt[], set: string): PeerRun {
  const work = mkdtempSync(join(tmpdir(), 'tz-peers-'));
  const manifest = join(work, 'm.json');
  writeFileSync(manifest, JSON.stringify(utts.map((u) => ({ uid: u.uid, audio: u.audio, text: u.text }))));
  const cmd = script[0]!.endsWith('.py') ? ['python3', ...script] : [process.execPath, ...script];
  const measuredCost = measured([...cmd, manifest, work]);
  const rep = lastJson(measuredCost.stdout);
  if (measuredCost.status !== 0 || !rep)
    throw new Error(`${peer} failed (exit ${measuredCost.status}): ${measuredCost.stdout.slice(-500)}`);
  // a driver that runs the peer once per file reports the peer's own CPU and memory
  const cost =
    rep.childCpu !== undefined
      ? { ...measuredCost, cpu: rep.childCpu, peakRssMb: rep.peakRssMb ?? measuredCost.peakRssMb }
      : measuredCost;
  return {
    peer: rep.failed ? `${peer} (${rep.failed} files failed)` : peer,
    cost,
    startup: rep.startup,
    perFile: rep.perFile,
    score: score(refDir(set, utts), work),
  };
}

/** The references of just these utterances (score.py reads a folder; --limit takes part of a set). */
function refDir(set: string, utts: RefUtt[]): string {
  const dir = mkdtempSync(join(tmpdir(), `tz-peers-ref-${set}-`));
  for (const u of utts) symlinkSync(join(setDir(set), `${u.uid}.json`), join(dir, `${u.uid}.json`));
  return dir;
}

const f = (v: number | null | undefined, d = 1): string =>
  v === null || v === undefined ? '-' : v.toFixed(d);

export async function peersMode(): Promise<{ title: string; lines: string[] }> {
  const sets = (arg('sets') ?? 'timit-dev').split(',');
  const limit = arg('limit') ? Number(arg('limit')) : Infinity;
  const rounds = Number(arg('rounds', '1'));
  const precision = arg('precision', 'standard')!;
  const egDir = arg('echogarden');
  const psBin = arg('pocketsphinx');
  const psModel = arg('pocketsphinx-model', '/usr/share/pocketsphinx/model/en-us/en-us')!;
  const psDict = arg('pocketsphinx-dict', '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict')!;
  // asked for and not runnable is an error, not a row left out: a table without it reads as a result
  if (psBin && !existsSync(psBin)) throw new Error(`--pocketsphinx ${psBin}: no such file`);
  if (psBin && !existsSync(psModel))
    throw new Error(
      `--pocketsphinx: its model ${psModel} is missing (Debian: apt-get install pocketsphinx-en-us; or give --pocketsphinx-model DIR)`,
    );
  const lines: string[] = [];
  for (const set of sets) {
    const utts = loadSet(set).slice(0, limit);
    if (utts.some((u) => !/^en(g)?(-|$)/i.test(u.lang)))
      throw new Error(`--mode peers compares English sets (the peers run their English models): ${set}`);
    const audio = utts.reduce((a, u) => a + u.duration, 0);
    const peers: (() => PeerRun)[] = [
      () => runTazamun(set, utts, precision),
      () => runTazamun(set, utts, precision, false),
      () =>
        runChild(
          'pocketsphinx 5 align (soundswallower WASM)',
          [join(HERE, 'peers/pocketsphinx.mjs')],
          utts,
          set,
        ),
    ];
    if (psBin)
      peers.push(
        () =>
          runChild(
            'pocketsphinx 5 align (native, a process per file)',
            [join(HERE, 'peers/pocketsphinx-native.py'), psBin, psModel, psDict],
            utts,
            set,
          ),
        // the same with a dictionary of the file's words only: most of a short file's cost is reading the
        // whole dictionary, which a user can avoid
        () =>
          runChild(
            "pocketsphinx 5 align (native, a process per file, the transcript's words as its dictionary)",
            [join(HERE, 'peers/pocketsphinx-native.py'), psBin, psModel, psDict, 'trim'],
            utts,
            set,
          ),
      );
    else
      lines.push(
        `native pocketsphinx: not run (give --pocketsphinx BIN, a pocketsphinx 5 build; its model: ${psModel})`,
      );
    if (egDir && existsSync(join(egDir, 'node_modules', 'echogarden')))
      peers.push(() => runChild('echogarden dtw', [join(HERE, 'peers/echogarden.mjs'), egDir], utts, set));
    else
      lines.push(
        `echogarden: not run (give --echogarden DIR, a folder where \`npm install echogarden\` was run)`,
      );
    lines.push(
      `${set}: ${utts.length} files, ${audio.toFixed(1)} s of audio, ${rounds} round(s), load before ${loadavg()}`,
    );
    // where the line naming Tazamun's model goes once its first run has said which it was
    const modelAt = lines.length;
    lines.push('');
    lines.push(
      '| aligner | round | matched | mean ms | <=50 % | wall RTF (process) | CPU RTF (process) | warm RTF (files 2..n) | start-up s | peak RSS MB | CPU ÷ Tazamun |',
    );
    lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 ? peers : [...peers].reverse();
      const runs = order.map((p) => p());
      const tz = runs.find((r) => r.peer === `Tazamun (CLI batch, ${precision})`)!;
      // the model Tazamun ran, said once: the npm English model when Debian's 16 kHz one is not installed,
      // which the native peer's row does not run
      if (round === 1) lines.splice(modelAt, 0, `Tazamun's acoustic model: ${tz.model}`);
      for (const r of runs) {
        const warm = r.perFile.slice(1).reduce((a, b) => a + b, 0);
        const warmAudio = audio - (utts[0]?.duration ?? 0);
        lines.push(
          `| ${r.peer} | ${round} | ${r.score.matched_words}/${r.score.ref_words} | ${f(r.score.mean_ms)} | ${f(r.score.pct_within_50ms)} | ${f(r.cost.wall / audio, 3)} | ${f(r.cost.cpu / audio, 3)} | ${f(warmAudio ? warm / warmAudio : null, 3)} | ${f(r.startup, 2)} | ${f(r.cost.peakRssMb, 0)} | ${f(r.cost.cpu / tz.cost.cpu, 2)} |`,
        );
      }
    }
    lines.push('');
    lines.push(`load after ${loadavg()}`);
  }
  return { title: `Peers, same files, same sitting (${new Date().toISOString().slice(0, 16)}Z)`, lines };
}

function loadavg(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}
