// `npm run bench:platform`: the platform's own speed (issue 29, items 11-13), measured the same way before
// and after a change, for docs/benchmarks.md.
//
//   npm run bench:platform -- [--only=video,web,startup,ready] [--repeat=3] [--tiles=30,120]
//                             [--compare=DIR] [--out=f.json]
//
// --compare=DIR measures another checkout too (e.g. the commit before a change, unpacked with
// `git archive <commit> | tar -x -C DIR` and `ln -s $PWD/node_modules DIR/node_modules`), run by run
// alternately with this one, so both meet the same load on a shared machine: each figure then has a
// `before` (DIR) and an `after` (this checkout). Its renders use DIR's renderer, its starts DIR's
// scripts and sources.
//
// video   karaoke MP4 renders at Full HD with the waveform (the export's defaults), each in a child
//         process pinned to one core (taskset -c 0): wall time against the audio's duration and the peak
//         resident memory of ffmpeg, on an English and two Arabic clips aligned here first, then on one
//         alignment tiled to 60 s and 180 s (is memory flat in the video's length?).
// web     the built web app as the server serves it: the landing page's bytes (index.html, its scripts,
//         preloads and styles) over the wire without compression, with gzip and with brotli, and the
//         cache headers of a hashed asset.
// startup `npm run admin -- list`, `tazamun --help` (bin, its sources, and through npx), the API's start to a
//         200 from /api/health/ and from /api/ready/, and whether it loaded BullMQ or the S3 SDK without
//         REDIS_URL / S3_BUCKET.
// ready   GET /api/ready/ of an API process (in this process, SQLite, a real redis-server) while Redis is
//         frozen (SIGSTOP): how long the probe takes to answer `degraded` (issue 29, item 4).
//
// Every figure is a median of --repeat runs (min and max beside it); the load average is printed with
// each section, since the machine is shared.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { align } from '@tazamun/aligner/engine';
import { ffmpegPath } from '@tazamun/aligner/audio';
import { PROJECT_ROOT } from '../paths.ts';
import { freePort } from '@tazamun/server/testing/postgres-server';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'video,web,startup,ready' },
    repeat: { type: 'string', default: '3' },
    tiles: { type: 'string', default: '30,120' },
    compare: { type: 'string' },
    out: { type: 'string' },
  },
});
const sections = new Set(args.only.split(','));
const repeat = Math.max(1, Number(args.repeat));
const work = mkdtempSync(join(tmpdir(), 'tazamun-bench-platform-'));
const report: Record<string, unknown> = { date: new Date().toISOString(), repeat };
const load = () => loadavg().map((l) => Number(l.toFixed(1)));
/** The checkouts measured, in the order each run visits them. */
const trees: { name: string; root: string }[] = args.compare
  ? [
      { name: 'before', root: args.compare },
      { name: 'after', root: PROJECT_ROOT },
    ]
  : [{ name: 'this', root: PROJECT_ROOT }];

/** Runs `measure` `times` times on every tree, alternating; returns each tree's values. */
async function alternate<T>(times: number, measure: (root: string) => Promise<T> | T) {
  const out = new Map<string, T[]>(trees.map((t) => [t.name, []]));
  for (let i = 0; i < times; i++) for (const t of trees) out.get(t.name)!.push(await measure(t.root));
  return out;
}

interface Spread {
  median: number;
  min: number;
  max: number;
}

function spread(xs: number[]): Spread {
  const s = [...xs].sort((a, b) => a - b);
  const round = (x: number) => Number(x.toFixed(3));
  return { median: round(s[Math.floor(s.length / 2)]!), min: round(s[0]!), max: round(s.at(-1)!) };
}

function timed(cmd: string, argv: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { cwd: options.cwd ?? PROJECT_ROOT, env: options.env, stdio: 'pipe' });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed: ${r.stderr?.toString()}`);
  return s;
}

// ---- video ----

/** One alignment tiled `times` over its own length, with its audio concatenated as many times. */
function tile(result: AlignmentResult, wav: string, times: number, dir: string) {
  const d = result.audio.duration;
  const n = result.words.length;
  const words = [];
  const segments = [];
  for (let k = 0; k < times; k++) {
    for (const w of result.words)
      words.push({
        ...w,
        index: w.index + k * n,
        start: w.start === null ? null : w.start + k * d,
        end: w.end === null ? null : w.end + k * d,
      });
    for (const s of result.segments)
      segments.push({
        ...s,
        index: s.index + k * result.segments.length,
        word_start: s.word_start + k * n,
        word_end: s.word_end + k * n,
      });
  }
  const list = join(dir, `tile-${times}.txt`);
  writeFileSync(list, `${Array.from({ length: times }, () => `file '${wav}'`).join('\n')}\n`);
  const audio = join(dir, `tile-${times}.wav`);
  execFileSync(ffmpegPath(), [
    '-v',
    'error',
    '-y',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-c',
    'copy',
    audio,
  ]);
  return {
    result: { ...result, words, segments, audio: { ...result.audio, duration: d * times } },
    audio,
  };
}

async function videoSection(): Promise<Record<string, unknown>> {
  const eval_ = evalDir();
  const fontsDir = '/usr/share/fonts/truetype/noto';
  const clips = [
    { name: 'en timit dr1-fvmh0_sa1', lang: 'eng', base: join(eval_, 'timit-dev/dr1-fvmh0_sa1') },
    { name: 'ar arsyn_05', lang: 'ara', base: join(eval_, 'ar-synthetic/arsyn_05') },
    { name: 'ar arsyn_03', lang: 'ara', base: join(eval_, 'ar-synthetic/arsyn_03') },
  ];
  const renders: {
    name: string;
    result: string;
    audio: string;
    options: Record<string, unknown>;
    once?: boolean;
  }[] = [];
  const aligned: { result: AlignmentResult; wav: string }[] = [];
  for (const c of clips) {
    const text = (JSON.parse(readFileSync(`${c.base}.json`, 'utf8')) as { text: string }).text;
    const result = await align(`${c.base}.wav`, text, { lang: c.lang });
    const file = join(work, `${c.name.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, JSON.stringify(result));
    aligned.push({ result, wav: `${c.base}.wav` });
    renders.push({ name: c.name, result: file, audio: `${c.base}.wav`, options: {} });
  }
  renders.push({
    ...renders[0]!,
    name: `${renders[0]!.name}, no waveform`,
    options: { show_waveform: false },
  });
  // memory against length: the 7 s Arabic clip tiled to about --tiles seconds (rendered once each)
  const base = aligned[2]!;
  for (const seconds of args.tiles.split(',').map(Number)) {
    const times = Math.round(seconds / base.result.audio.duration);
    const t = tile(base.result, base.wav, times, work);
    const file = join(work, `tile-${times}.json`);
    writeFileSync(file, JSON.stringify(t.result));
    renders.push({ name: `ar arsyn_03 × ${times}`, result: file, audio: t.audio, options: {}, once: true });
  }
  const rows = [];
  type Run = {
    seconds: number;
    cpu_seconds: number;
    audio_seconds: number;
    peak_ffmpeg_kb: number;
    bytes: number;
  };
  for (const r of renders) {
    const job = join(work, 'render-job.json');
    writeFileSync(job, JSON.stringify({ ...r, options: { resolution: 'fullhd', ...r.options }, fontsDir }));
    const runs = await alternate(r.once ? 1 : repeat, (root) => {
      const out = execFileSync(
        'taskset',
        [
          '-c',
          '0',
          process.execPath,
          '--import',
          'tsx',
          join(PROJECT_ROOT, 'apps/server/src/bench/render-one.ts'),
          job,
        ],
        {
          cwd: PROJECT_ROOT,
          encoding: 'utf8',
          env: { ...process.env, TAZAMUN_RENDERER: join(root, 'apps/server/src/media/render-video.ts') },
        },
      );
      return JSON.parse(out.trim().split('\n').at(-1)!) as Run;
    });
    const row: Record<string, unknown> = { clip: r.name };
    for (const [tree, list] of runs) {
      const audio = list[0]!.audio_seconds;
      row.audio_s = Number(audio.toFixed(2));
      row[tree] = {
        render_s: spread(list.map((x) => x.seconds)),
        ratio: Number((spread(list.map((x) => x.seconds)).median / audio).toFixed(2)),
        ffmpeg_cpu_s: spread(list.map((x) => x.cpu_seconds)),
        peak_ffmpeg_mb: Math.round(Math.max(...list.map((x) => x.peak_ffmpeg_kb)) / 1024),
        mp4_kb: Math.round(list[0]!.bytes / 1024),
      };
    }
    console.log(JSON.stringify(row));
    rows.push(row);
  }
  return { load: load(), cores: 'taskset -c 0 (one core)', rows };
}

// ---- servers for the web and start-up sections ----

interface RunningApi {
  url: string;
  /** spawn to the first 200 from /api/health/ (listening), and from /api/ready/ (serving) */
  startedInS: number;
  readyInS: number;
  traced: string[];
  stop(): Promise<void>;
}

async function startApi(extraEnv: Record<string, string> = {}, root = PROJECT_ROOT): Promise<RunningApi> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(work, 'data-'));
  const trace = join(dataDir, 'modules.txt');
  writeFileSync(trace, '');
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, [join(root, 'scripts/start.mjs'), '--role=api'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      S3_BUCKET: '',
      DEMO_MEDIA_DIR: '',
      JWT_SECRET: 'bench-platform-secret-that-is-long-enough-0123',
      LOG_LEVEL: 'warn',
      TAZAMUN_MODULE_TRACE: trace,
      NODE_OPTIONS: `--import=${join(PROJECT_ROOT, 'apps/server/test-support/module-trace.mjs')}`,
      ...extraEnv,
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/api/health/`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const startedInS = Number(process.hrtime.bigint() - t0) / 1e9;
  for (;;) {
    const ok = await fetch(`${url}/api/ready/`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const readyInS = Number(process.hrtime.bigint() - t0) / 1e9;
  return {
    url,
    startedInS,
    readyInS,
    traced: readFileSync(trace, 'utf8').split('\n').filter(Boolean),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The bytes on the wire for one GET (no decompression), with the response headers. */
function rawGet(url: string, encoding: string | null) {
  return new Promise<{ status: number; bytes: number; body: Buffer; headers: Record<string, unknown> }>(
    (resolve, reject) => {
      const req = request(url, { headers: encoding ? { 'accept-encoding': encoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, bytes: body.length, body, headers: res.headers });
        });
      });
      req.on('error', reject);
      req.end();
    },
  );
}

async function webSection(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const t of trees) out[t.name] = await webOf(t.root);
  return out;
}

async function webOf(root: string): Promise<Record<string, unknown>> {
  const dist = join(root, 'apps/web/dist');
  if (!existsSync(join(dist, 'index.html')))
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  const api = await startApi({}, root);
  try {
    const index = (await rawGet(`${api.url}/`, null)).body.toString();
    const assets = [...index.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="(\/[^"]+\.(?:js|css))"/g)].map(
      (m) => m[1]!,
    );
    const landing: Record<string, unknown> = { assets: assets.length };
    for (const enc of [null, 'gzip', 'br'] as const) {
      let js = 0;
      let all = 0;
      const seen = new Set<string>();
      for (const path of ['/', ...assets]) {
        const r = await rawGet(`${api.url}${path}`, enc === null ? null : `${enc}, deflate`);
        if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
        seen.add(String(r.headers['content-encoding'] ?? 'identity'));
        all += r.bytes;
        if (path.endsWith('.js')) js += r.bytes;
      }
      landing[enc ?? 'identity'] = {
        js_kb: Math.round(js / 1024),
        total_kb: Math.round(all / 1024),
        served_as: [...seen],
      };
    }
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
      );
    const originals = files(dist).filter((f) => !/\.(br|gz)$/.test(f));
    const kb = (fs: string[]) => Math.round(fs.reduce((n, f) => n + statSync(f).size, 0) / 1024);
    const hashed = assets.find((a) => a.startsWith('/assets/'));
    const cache = hashed ? (await rawGet(`${api.url}${hashed}`, 'br')).headers['cache-control'] : null;
    const row = {
      load: load(),
      landing,
      dist_files: originals.length,
      dist_kb: kb(originals),
      dist_br_kb: kb(originals.map((f) => `${f}.br`).filter((f) => existsSync(f))),
      hashed_asset: hashed ? relative('/', hashed) : null,
      hashed_cache_control: cache ?? null,
      index_cache_control: (await rawGet(`${api.url}/`, null)).headers['cache-control'] ?? null,
    };
    console.log(JSON.stringify(row));
    return row;
  } finally {
    await api.stop();
  }
}

async function startupSection(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(work, 'admin-'));
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', S3_BUCKET: '' };
  const admin = (root: string) => timed('npm', ['run', 'admin', '--', 'list'], { env, cwd: root });
  const help = (root: string) =>
    timed(process.execPath, [join(root, 'packages/aligner/bin/tazamun.mjs'), '--help']);
  // the first call migrates the fresh database and may compile: not what is measured
  for (const t of trees) {
    admin(t.root);
    help(t.root);
  }
  const admins = await alternate(repeat, admin);
  const helps = await alternate(repeat, help);
  // the CLI where its bundle cannot be built (a read-only tree without one): its sources under tsx
  const sources = await alternate(repeat, (root) =>
    timed(process.execPath, [join(root, 'packages/aligner/bin/tazamun.mjs'), '--help'], {
      env: { ...process.env, TAZAMUN_CLI_SOURCES: '1' },
    }),
  );
  const npx = await alternate(repeat, (root) => timed('npx', ['tazamun', '--help'], { cwd: root }));
  // the API: the first start may build; the next ones are what a restart costs
  for (const t of trees) await (await startApi({}, t.root)).stop();
  const traced = new Map<string, string[]>();
  const readies = new Map<string, number[]>(trees.map((t) => [t.root, []]));
  const starts = await alternate(repeat, async (root) => {
    const api = await startApi({}, root);
    traced.set(root, api.traced);
    readies.get(root)!.push(api.readyInS);
    await api.stop();
    return api.startedInS;
  });
  const row: Record<string, unknown> = { load: load() };
  for (const t of trees)
    row[t.name] = {
      npm_run_admin_list_s: spread(admins.get(t.name)!),
      tazamun_help_s: spread(helps.get(t.name)!),
      tazamun_help_from_sources_s: spread(sources.get(t.name)!),
      npx_tazamun_help_s: spread(npx.get(t.name)!),
      api_start_to_health_s: spread(starts.get(t.name)!),
      api_start_to_ready_s: spread(readies.get(t.root)!),
      api_loaded_without_redis_or_s3: traced.get(t.root),
    };
  const importCost = (what: string) =>
    spread(
      Array.from({ length: repeat }, () => {
        const out = execFileSync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `const t = performance.now(); ${what}; console.log(performance.now() - t);`,
          ],
          { cwd: join(PROJECT_ROOT, 'apps/server'), encoding: 'utf8' },
        );
        return Number(out.trim()) / 1000;
      }),
    );
  row.import_bullmq_s = importCost("await import('bullmq')");
  row.import_s3_sdk_s = importCost(
    "await import('@aws-sdk/client-s3'); await import('@aws-sdk/lib-storage')",
  );
  console.log(JSON.stringify(row));
  return row;
}

async function readySection(): Promise<Record<string, unknown>> {
  const { startRedis } = await import('@tazamun/server/testing/redis-server');
  const { buildApp } = await import('../app.ts');
  const { testConfig } = await import('@tazamun/server/testing/test-app');
  const redis = await startRedis();
  const dir = mkdtempSync(join(work, 'ready-'));
  const app = await buildApp(testConfig(dir, { redisUrl: redis.url }), { logger: false, jobs: undefined });
  try {
    await app.ready();
    const probe = async () => {
      const t0 = process.hrtime.bigint();
      const res = await app.inject({ url: '/api/ready/' });
      return {
        s: Number(process.hrtime.bigint() - t0) / 1e9,
        status: res.statusCode,
        body: res.json() as unknown,
      };
    };
    const healthy = spread((await Promise.all([probe()])).map((p) => p.s));
    redis.pause();
    const frozen: { s: number; status: number; body: unknown }[] = [];
    try {
      for (let i = 0; i < Math.max(5, repeat); i++) frozen.push(await probe());
    } finally {
      redis.resume();
    }
    const row = {
      load: load(),
      healthy_s: healthy,
      redis_frozen_s: spread(frozen.map((f) => f.s)),
      redis_frozen_answer: { status: frozen[0]!.status, body: frozen[0]!.body },
    };
    console.log(JSON.stringify(row));
    return row;
  } finally {
    await app.close();
    await redis.stop();
  }
}

try {
  if (sections.has('ready')) report.ready = await readySection();
  if (sections.has('startup')) report.startup = await startupSection();
  if (sections.has('web')) report.web = await webSection();
  if (sections.has('video')) report.video = await videoSection();
  if (args.out) writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
