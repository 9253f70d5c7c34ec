// `npm run bench:load`: a bounded load test of the API on loopback. It starts a real API process
// (server.ts --role=api on a fresh DATA_DIR, SQLite by default or --db=postgres on a throwaway cluster),
// creates a load user with the admin CLI, then drives `--connections` concurrent clients with autocannon
// through login, profile, results listing and upload (a small real WAV), one scenario at a time, and
// optionally a mixed soak while sampling the server's resident memory.
//
//   npm run bench:load -- [--connections=200] [--duration=10] [--soak=0] [--hostile] [--db=sqlite|postgres] [--out=f.json]
//
// --duration is seconds per scenario; --soak is the mixed-soak length (e.g. 300 or 5m; 0 = none).
// --hostile runs the hostile-request probes of docs/reliability.md (bench/hostile-probes.ts) in a loop
// beside the soak's traffic: each probe has its expected answers, anything else is counted unexpected.
// Uploads answered 202 during the soak are counted one by one and checked against the stored rows.
// Uploads beyond the probe gate's wait queue get 503 server_busy with Retry-After by design: those are
// counted apart (busy503) and do not fail the run; any other 5xx does.
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { parseDuration } from '../config.ts';
import { PROJECT_ROOT } from '../paths.ts';
import { freePort, startPostgres } from '@tazamun/server/testing/postgres-server';
import type { PostgresServer } from '@tazamun/server/testing/postgres-server';
import { pcmWav } from '@tazamun/server/testing/wav';
import { runHostileProbes } from './hostile-probes.ts';
import type { HostileReport } from './hostile-probes.ts';

const PASSWORD = 'Lantern-Orbit-1987';
const EMAIL = 'load@example.org';
const VICTIM = 'victim@example.org';

const { values: args } = parseArgs({
  options: {
    connections: { type: 'string', default: '200' },
    duration: { type: 'string', default: '10' },
    soak: { type: 'string', default: '0' },
    db: { type: 'string', default: 'sqlite' },
    hostile: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const connections = Number(args.connections);
const duration = Number(args.duration);
const soakSeconds = (parseDuration(args.soak) ?? 0) / 1000;
if (!(connections > 0) || !(duration > 0)) throw new Error('--connections and --duration must be positive');
if (args.db !== 'sqlite' && args.db !== 'postgres') throw new Error('--db is sqlite or postgres');

/** 0.25 s of a 440 Hz tone, 16 kHz mono 16-bit PCM: a real WAV the upload route sniffs and probes. */
function smallWav(): Buffer {
  return pcmWav(0.25, (i) => 8000 * Math.sin((2 * Math.PI * 440 * i) / 16_000));
}

function multipart(wav: Buffer): { body: Buffer; type: string } {
  const b = 'tazamunbenchboundary7f3a';
  const field = (name: string, value: string) =>
    `--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const body = Buffer.concat([
    Buffer.from(field('language', 'eng') + field('text', 'hello world')),
    Buffer.from(
      `--${b}\r\nContent-Disposition: form-data; name="audio"; filename="tone.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    ),
    wav,
    Buffer.from(`\r\n--${b}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${b}` };
}

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

async function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'apps/server/src/server.ts'), '--role=api'],
    {
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/ready/`)).ok) return { child, url };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become ready');
}

/** Requests still queued when a scenario's clock stops would slow the next one: wait until idle. */
async function drain(url: string): Promise<void> {
  let fast = 0;
  for (let i = 0; i < 600 && fast < 3; i++) {
    const t = Date.now();
    await fetch(`${url}/api/health/`).catch(() => undefined);
    fast = Date.now() - t < 100 ? fast + 1 : 0;
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Figures {
  scenario: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  '2xx': number;
  non2xx: number;
  /** 5xx other than the upload gate's deliberate 503 */
  '5xx': number;
  /** 503 server_busy with Retry-After: the probe gate shedding uploads beyond its wait queue */
  busy503: number;
  errors: number;
  timeouts: number;
}

// Only uploads may be shed (503 server_busy); a 503 anywhere else is a failure.
const scenarioSheds = (scenario: string): boolean => /upload/.test(scenario);

async function run(scenario: string, opts: autocannon.Options): Promise<Figures> {
  const r = await autocannon({ connections, duration, timeout: 30, ...opts });
  const s5 = (r as unknown as { '5xx': number })['5xx'] ?? 0;
  const codes = (r as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats;
  const busy = scenarioSheds(scenario) ? (codes?.['503']?.count ?? 0) : 0;
  return {
    scenario,
    requests: r.requests.total,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    '2xx': r['2xx'],
    non2xx: r.non2xx,
    '5xx': s5 - busy,
    busy503: busy,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tazamun-load-'));
  let pg: PostgresServer | null = null;
  let server: ChildProcess | null = null;
  try {
    if (args.db === 'postgres') pg = await startPostgres();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: pg?.url ?? '',
      JWT_SECRET: 'load-test-secret-that-is-long-enough-0123456789',
      LOG_LEVEL: 'warn',
      WEB_DIST: join(dataDir, 'no-web'),
      DEMO_MEDIA_DIR: '',
      // The bench is one IP hammering one account: lift the abuse limits (they are tested elsewhere).
      AUTH_RATE_LIMIT: '100000000',
      AUTH_EMAIL_RATE_LIMIT: '100000000',
      // the clients all come from 127.0.0.1: the per-address cap stays on, above the bench's own count
      MAX_CONNECTIONS_PER_IP: String(connections + 64),
    };
    const cli = (...a: string[]) =>
      execFileSync(
        process.execPath,
        ['--import', 'tsx', join(PROJECT_ROOT, 'apps/server/src/cli/admin.ts'), ...a],
        {
          env,
          stdio: 'pipe',
        },
      );
    const createUser = (email: string, first: string, last: string) =>
      cli(
        'create',
        '--email',
        email,
        '--password',
        PASSWORD,
        '--role',
        'user',
        '--first-name',
        first,
        '--last-name',
        last,
      );
    createUser(EMAIL, 'Load', 'Bench');
    cli('set-quota', EMAIL, '100000');
    // the hostile probes guess this account's password in parallel (its lockout must hold)
    createUser(VICTIM, 'Probe', 'Target');
    const started = await startServer(env);
    server = started.child;
    const { url } = started;
    const login = await fetch(`${url}/api/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    const access = ((await login.json()) as { tokens: { access: string } }).tokens.access;
    const auth = { authorization: `Bearer ${access}` };
    const upload = multipart(smallWav());
    const pid = server.pid!;
    const memory: { t: number; rssMb: number }[] = [];
    const t0 = Date.now();
    const sample = () =>
      memory.push({ t: Math.round((Date.now() - t0) / 1000), rssMb: Math.round(rssKb(pid) / 1024) });
    sample();
    const sampler = setInterval(sample, 2000);

    const results: Figures[] = [];
    const scenarios: [string, autocannon.Options][] = [
      [
        'login',
        {
          url: `${url}/api/auth/login/`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
        },
      ],
      ['profile', { url: `${url}/api/auth/profile/`, headers: auth }],
      ['results listing', { url: `${url}/api/alignments/?page_size=20`, headers: auth }],
      [
        'upload',
        {
          url: `${url}/api/alignments/`,
          method: 'POST',
          headers: { ...auth, 'content-type': upload.type },
          body: upload.body,
        },
      ],
    ];
    for (const [name, opts] of scenarios) {
      await drain(url);
      console.error(`[bench:load] ${name}: ${connections} connections for ${duration}s`);
      results.push(await run(name, opts));
    }
    let hostile: HostileReport | null = null;
    let uploads: { answered: number; accepted: number; missing: number; stored: number } | null = null;
    let soak: {
      seconds: number;
      figures: Figures;
      rssMb: { first: number; last: number; max: number };
    } | null = null;
    if (soakSeconds > 0) {
      await drain(url);
      console.error(`[bench:load] mixed soak: ${connections} connections for ${soakSeconds}s`);
      const from = memory.length;
      const profile = { path: '/api/auth/profile/', headers: auth };
      const listing = { path: '/api/alignments/?page_size=20', headers: auth };
      const post = {
        path: '/api/alignments/',
        method: 'POST' as const,
        headers: { ...auth, 'content-type': upload.type },
        body: upload.body,
      };
      const stored = async () =>
        (
          (await (await fetch(`${url}/api/alignments/?page_size=1`, { headers: auth })).json()) as {
            count: number;
          }
        ).count;
      const storedBefore = await stored();
      // every upload answered 202 names its alignment: each must exist once the soak is over
      const acceptedIds: string[] = [];
      let answered = 0;
      const countedPost = {
        ...post,
        onResponse: (status: number, body: string) => {
          answered += 1;
          if (status === 202) acceptedIds.push((JSON.parse(body) as { id: string }).id);
        },
      };
      const probing = args.hostile
        ? runHostileProbes({ url, access, secret: env.JWT_SECRET!, victim: VICTIM, seconds: soakSeconds })
        : null;
      // one upload in eight requests: each upload is probed by ffprobe, a process per request
      const figures = await run(
        `soak (profile, listing; 1 in 8 an upload${args.hostile ? '; hostile probes' : ''})`,
        {
          url,
          duration: soakSeconds,
          requests: [profile, listing, profile, listing, profile, listing, profile, countedPost],
        },
      );
      hostile = probing ? await probing : null;
      await drain(url);
      let missing = 0;
      for (const id of acceptedIds) {
        const r = await fetch(`${url}/api/alignments/${id}/`, { headers: auth });
        if (r.status !== 200) missing += 1;
        await r.arrayBuffer();
      }
      // stored can exceed accepted by the uploads still in flight when the clients stopped
      uploads = { answered, accepted: acceptedIds.length, missing, stored: (await stored()) - storedBefore };
      const window = memory.slice(from).map((m) => m.rssMb);
      // the first and last minute (or tenth) of the soak, averaged, show whether memory keeps climbing
      const span = Math.max(1, Math.min(30, Math.floor(window.length / 10)));
      const avg = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
      soak = {
        seconds: soakSeconds,
        figures,
        rssMb: {
          first: avg(window.slice(0, span)),
          last: avg(window.slice(-span)),
          max: Math.max(...window),
        },
      };
    }
    clearInterval(sampler);
    sample();
    const report = {
      date: new Date().toISOString(),
      db: args.db,
      connections,
      durationPerScenario: duration,
      node: process.version,
      cpus: cpus().length,
      loadAverageAtEnd: loadavg().map((l) => Math.round(l * 10) / 10),
      results,
      soak,
      hostile,
      uploads,
      rssMb: {
        start: memory[0]!.rssMb,
        end: memory.at(-1)!.rssMb,
        max: Math.max(...memory.map((m) => m.rssMb)),
      },
    };
    console.table(results);
    if (soak)
      console.table([
        { ...soak.figures, rss_first: soak.rssMb.first, rss_last: soak.rssMb.last, rss_max: soak.rssMb.max },
      ]);
    if (hostile) console.table(hostile.probes);
    if (uploads)
      console.log(
        `uploads during the soak: ${uploads.answered} answered, ${uploads.accepted} accepted (202), ` +
          `${uploads.missing} of those missing afterwards, ${uploads.stored} rows stored`,
      );
    console.log(JSON.stringify(report.rssMb));
    if (args.out) writeFileSync(args.out, `${JSON.stringify({ ...report, memory }, null, 2)}\n`);
    const bad = [...results, ...(soak ? [soak.figures] : [])].filter((r) => r['5xx'] > 0 || r.errors > 0);
    if (bad.length) {
      console.error(
        `[bench:load] FAIL: 5xx or connection errors in ${bad.map((b) => b.scenario).join(', ')}`,
      );
      process.exitCode = 1;
    }
    if (hostile && hostile.unexpected > 0) {
      console.error(`[bench:load] FAIL: ${hostile.unexpected} unexpected answers to hostile probes`);
      process.exitCode = 1;
    }
    if (uploads && (uploads.missing > 0 || uploads.stored < uploads.accepted)) {
      console.error(`[bench:load] FAIL: ${uploads.missing} accepted uploads lost`);
      process.exitCode = 1;
    }
  } finally {
    server?.kill('SIGTERM');
    if (server) await new Promise((r) => server!.once('exit', r));
    await pg?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
