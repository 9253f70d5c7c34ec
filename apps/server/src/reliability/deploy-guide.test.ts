// docs/deploy.md's scaled-out guide, followed as written (issue 29, items 9 and 10): the code blocks of
// its steps 1 to 7 run in order in one `bash -e` session, on this machine, without containers, through
// the emulation of test-support/deploy-emulation.ts (a temporary root for the guide's paths, free ports,
// stand-ins for apt-get, useradd, git clone, npm ci, sudo, install's owners, editor, systemctl and
// journalctl). After step 1 the checkout is remounted read-only, as the units' ProtectSystem=strict
// makes it. PostgreSQL is a throwaway cluster whose superuser is `postgres` and which checks passwords
// over TCP; Redis is started by step 3's `systemctl restart` with the file step 3 appended to.
// A failing command fails the test with its step. Then what step 7 promises is checked (both APIs ready
// and not degraded, two live workers, every journal line JSON), and what the guide implies: the four
// services still run (no crash loop: EROFS, EADDRINUSE), an upload to one API completes and is seen
// through the other, `tazamun --help` runs compiled from the read-only tree, and SIGTERM stops every
// service with exit code 0. As root only (mount --bind); it runs once, in the SQLite pass of the suite.
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PROJECT_ROOT } from '../paths.ts';
import { TEST_DB } from '@tazamun/server/testing/test-app';
import { freePort, postgresBinDir, startPostgres } from '@tazamun/server/testing/postgres-server';
import { installStandIns, rewrite } from '@tazamun/server/testing/deploy-emulation';
import type { Emulation } from '@tazamun/server/testing/deploy-emulation';
import { evalClip } from '@tazamun/server/testing/jobs-test-app';
import { until } from '@tazamun/server/testing/until';

const GUIDE = join(PROJECT_ROOT, 'docs/deploy.md');
const ADMIN = { email: 'you@example.org', password: 'CHANGE-ME a long passphrase' };

/** The ```sh blocks of "Step by step on Debian 12", each with the number of the step it belongs to. */
function guideSteps(): { step: number; code: string }[] {
  const text = readFileSync(GUIDE, 'utf8');
  const start = text.indexOf('### Step by step on Debian 12');
  const end = text.indexOf('#### How this guide is tested', start);
  assert.ok(start >= 0 && end > start, 'docs/deploy.md has its step-by-step section');
  const steps: { step: number; code: string }[] = [];
  let step = 0;
  let block: string[] | null = null;
  for (const line of text.slice(start, end).split('\n')) {
    const item = /^(\d+)\. /.exec(line);
    if (item) step = Number(item[1]);
    const fence = /^\s*```(\w*)\s*$/.exec(line);
    if (fence && block === null && fence[1] === 'sh') block = [];
    else if (fence && block !== null) {
      steps.push({ step, code: block.join('\n') });
      block = null;
    } else if (block !== null) block.push(line.replace(/^ {3}/, ''));
  }
  return steps;
}

function run(cmd: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test(
  'docs/deploy.md followed as written: read-only tree, env file, two APIs, two workers',
  { timeout: 1_800_000 },
  async (t) => {
    if (TEST_DB !== 'sqlite') return t.skip('runs once, in the SQLite pass: it brings its own PostgreSQL');
    if (process.getuid?.() !== 0)
      throw new Error(
        'the deploy guide test mounts the checkout (mount --bind): run the server suite as root (CI does)',
      );

    // one hook, last in first out: services stop, Redis stops, the mount goes, the cluster, the folder
    const closers: (() => unknown)[] = [];
    t.after(async () => {
      for (const c of closers.reverse()) await Promise.resolve(c()).catch(() => undefined);
    });
    const root = mkdtempSync(join(tmpdir(), 'tazamun-deploy-'));
    closers.push(() => {
      if (mounted()) throw new Error(`${checkout} is still mounted: ${root} is left in place`);
      rmSync(root, { recursive: true, force: true });
    });
    const pg = await startPostgres({ superuser: 'postgres', passwords: true });
    closers.push(() => pg.stop());
    const ports: Record<string, number> = { '5432': pg.port };
    for (const p of ['6379', '8081', '8082', '9101', '9102']) ports[p] = await freePort();
    const emulation: Emulation = {
      root,
      ports,
      repo: PROJECT_ROOT,
      pg: { socketDir: pg.dir, port: pg.port },
      npm: execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim(),
    };
    const bin = installStandIns(emulation);
    // what a Debian system has: systemd's unit folder, and what the redis-server package installs,
    // reduced to what matters here
    mkdirSync(join(root, 'etc/systemd/system'), { recursive: true });
    mkdirSync(join(root, 'etc/redis'), { recursive: true });
    mkdirSync(join(root, 'var/lib/redis'), { recursive: true });
    writeFileSync(
      join(root, 'etc/redis/redis.conf'),
      `port ${ports['6379']}\nbind 127.0.0.1\ndir ${join(root, 'var/lib/redis')}\nsave ""\ndaemonize no\n`,
    );
    const checkout = join(root, 'opt/tazamun');
    const runDir = join(root, 'run');
    // The checkout is the repository under test, bind-mounted: it must be unmounted before the root is
    // removed, or the removal would walk into the repository.
    const mounted = () =>
      readFileSync('/proc/self/mounts', 'utf8')
        .split('\n')
        .some((l) => l.split(' ')[1] === checkout);
    closers.push(() => {
      while (mounted()) execFileSync('umount', ['-l', checkout]);
    });
    closers.push(async () => {
      // the services and Redis, by the pids their stand-in recorded
      if (!existsSync(runDir)) return;
      for (const f of readdirSync(runDir).filter((f) => f.endsWith('.pid'))) {
        try {
          process.kill(Number(readFileSync(join(runDir, f), 'utf8')), 'SIGKILL');
        } catch {
          // already gone
        }
      }
    });

    // the script: every block in order, a marker before each, and the read-only remount after step 1
    const steps = guideSteps();
    assert.deepEqual(
      [...new Set(steps.map((s) => s.step))],
      [1, 2, 3, 4, 5, 6, 7],
      'a code block in every step',
    );
    const script = ['set -euo pipefail'];
    for (const [i, s] of steps.entries()) {
      script.push(`echo "::step ${s.step}::" >&2`, rewrite(s.code, emulation));
      const lastOfStep1 = s.step === 1 && steps[i + 1]?.step !== 1;
      if (lastOfStep1) script.push(`mount -o remount,bind,ro ${checkout}  # ProtectSystem=strict`);
    }
    script.push('echo "::done::" >&2');
    writeFileSync(join(root, 'guide.sh'), `${script.join('\n')}\n`);
    const env = {
      PATH: `${bin}:${postgresBinDir()}:${process.env.PATH}`,
      HOME: process.env.HOME,
      LANG: 'C.UTF-8',
    };
    const guide = await run('bash', [join(root, 'guide.sh')], { env, cwd: root });
    const reached = [...guide.stderr.matchAll(/::step (\d+)::/g)].map((m) => m[1]).at(-1);
    assert.equal(
      guide.code,
      0,
      `docs/deploy.md step ${reached} failed (exit ${guide.code}):\n${guide.stderr.slice(-4000)}\n${guide.stdout.slice(-2000)}`,
    );
    assert.match(guide.stderr, /::done::/);
    t.diagnostic(
      guide.stderr
        .split('\n')
        .filter((l) => l.startsWith('[emulated]'))
        .join('\n'),
    );

    // step 3 took effect: Redis persists and evicts nothing
    const redisConfig = (key: string) =>
      execFileSync('redis-cli', ['-p', String(ports['6379']), 'config', 'get', key], { encoding: 'utf8' })
        .trim()
        .split('\n')[1];
    assert.deepEqual([redisConfig('appendonly'), redisConfig('maxmemory-policy')], ['yes', 'noeviction']);

    // step 7: both APIs ready and not degraded
    const ready = guide.stdout.split('\n').filter((l) => l.startsWith('{"ready":'));
    assert.equal(ready.length, 2, guide.stdout);
    for (const line of ready) assert.match(line, /^\{"ready":true,"degraded":false,/);

    // both workers live, as `npm run admin -- workers` (step 7) tells once their first heartbeats landed
    const adminWorkers = () =>
      run(
        'sudo',
        ['-u', 'tazamun', 'sh', '-c', `set -a; . ${root}/etc/tazamun/env; npm run admin -- workers`],
        {
          env,
          cwd: checkout,
        },
      );
    await until('two live workers', async () => /^2 live of 2$/m.test((await adminWorkers()).stdout));

    // every line the services wrote is a JSON log line (no npm banner, no build output)
    const journal = join(root, 'journal');
    const units = readdirSync(journal).filter((f) => f.startsWith('tazamun-'));
    assert.deepEqual(
      units.sort(),
      [
        `tazamun-api@${ports['8081']}.log`,
        `tazamun-api@${ports['8082']}.log`,
        `tazamun-worker@${ports['9101']}.log`,
        `tazamun-worker@${ports['9102']}.log`,
      ].sort(),
    );
    for (const unit of units)
      for (const line of readFileSync(join(journal, unit), 'utf8').split('\n').filter(Boolean))
        assert.doesNotThrow(() => JSON.parse(line), `${unit}: not a JSON line: ${line}`);

    // the four services still run: nothing crashed on the read-only tree or a shared port
    const alive = () => {
      for (const unit of units) {
        const name = unit.replace(/\.log$/, '');
        assert.equal(
          existsSync(join(runDir, `${name}.exit`)),
          false,
          `${name} exited:\n${readFileSync(join(journal, unit), 'utf8').slice(-3000)}`,
        );
      }
    };
    alive();

    // an upload through the first API, followed to its end through the second
    const api1 = `http://127.0.0.1:${ports['8081']}`;
    const api2 = `http://127.0.0.1:${ports['8082']}`;
    const login = await fetch(`${api1}/api/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    assert.equal(login.status, 200, await login.clone().text());
    const auth = {
      authorization: `Bearer ${((await login.json()) as { tokens: { access: string } }).tokens.access}`,
    };
    const clip = evalClip();
    const form = new FormData();
    form.set('language', 'eng');
    form.set('text', clip.text);
    form.set('audio', new Blob([readFileSync(clip.wav)]), 'a.wav');
    const upload = await fetch(`${api1}/api/alignments/`, { method: 'POST', headers: auth, body: form });
    assert.equal(upload.status, 202, await upload.clone().text());
    const id = ((await upload.json()) as { id: string }).id;
    await until(`${id} completed through the second API`, async () => {
      const res = await fetch(`${api2}/api/alignments/${id}/progress/`, { headers: auth });
      const status = ((await res.json()) as { status: string }).status;
      assert.notEqual(status, 'failed');
      return status === 'completed';
    });
    // the worker's metrics answer on its instance's port, behind the token
    const metrics = await fetch(`http://127.0.0.1:${ports['9101']}/metrics`);
    assert.equal(metrics.status, 401);

    // the CLI runs compiled from the read-only tree (npm run build made it)
    const help = await run(process.execPath, [join(checkout, 'packages/aligner/bin/tazamun.mjs'), '--help'], {
      env,
    });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^usage: tazamun/);
    assert.doesNotMatch(help.stderr, /running from the sources/);
    alive();

    // SIGTERM, as systemctl stop sends it: every service exits 0
    for (const unit of units) {
      const name = unit.replace(/\.log$/, '');
      process.kill(Number(readFileSync(join(runDir, `${name}.pid`), 'utf8')), 'SIGTERM');
    }
    for (const unit of units) {
      const name = unit.replace(/\.log$/, '');
      const code = await until(`${name} stopped`, () => {
        const f = join(runDir, `${name}.exit`);
        return existsSync(f) && readFileSync(f, 'utf8').trim() !== '' ? readFileSync(f, 'utf8').trim() : null;
      });
      assert.equal(
        code,
        '0',
        `${name} exit code:\n${readFileSync(join(journal, unit), 'utf8').slice(-2000)}`,
      );
    }
  },
);
