// The hostile-request catalogue (issue 12), item 2: the disk fills up for real. DATA_DIR (and, on
// SQLite, the database) sits on a small tmpfs that a filler file fills to the last byte while an
// alignment job's engine runs. Uploads are refused with 507 before their body is read, readiness turns
// false while the database cannot write and says the disk is low (degraded where the database has its
// own disk), nothing answers a bare 500, no promise rejection goes unhandled (it used to end the
// process), and everything works again once the filler is deleted. The job whose engine finished on
// the full disk keeps its result in memory and records it when space is back: its engine ran once
// (issue 29, item 5; it used to be handed back and aligned again).
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { ErrorBody } from '@tazamun/contracts/error-body';
import { buildApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import {
  approvedUser,
  bearer,
  expectError,
  login,
  TEST_DB,
  testConfig,
} from '@tazamun/server/testing/test-app';
import { evalClip, multipart, waitForStatus } from '@tazamun/server/testing/jobs-test-app';
import { until } from '@tazamun/server/testing/until';
import { freeBytes } from './disk-space.ts';
import { loadConfig } from '../config.ts';

const MARGIN = 6 * 1024 * 1024;

/** Mounts a tmpfs of `size` on `dir`; says why not when it cannot (not root, no CAP_SYS_ADMIN). */
function mountTmpfs(closers: (() => unknown)[], dir: string, size: string): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tazamun-disk-full', dir], { stdio: 'pipe' });
  } catch (err) {
    return (err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message;
  }
  closers.push(() => execFileSync('umount', ['-l', dir]));
  return null;
}

/** Writes zeros into `file` until the file system refuses (ENOSPC), down to the last 512 bytes. */
function fillDisk(file: string): number {
  const fd = openSync(file, 'w');
  let written = 0;
  try {
    for (const size of [1024 * 1024, 64 * 1024, 4096, 512]) {
      const chunk = Buffer.alloc(size);
      for (;;) {
        try {
          written += writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

function uploadParts(audio: Buffer, text: string) {
  return multipart([
    { name: 'language', value: 'eng' },
    { name: 'text', value: text },
    { name: 'audio', filename: 'clip.wav', content: audio, contentType: 'audio/wav' },
  ]);
}

function send(app: FastifyInstance, access: string, audio: Buffer, text: string) {
  const { payload, headers } = uploadParts(audio, text);
  return app.inject({
    method: 'POST',
    url: '/api/alignments/',
    payload,
    headers: { ...headers, ...bearer(access) },
  });
}

/** Never a bare 500: every answer is in the contract's shape, and a 5xx is a 503 or 507 with a request id. */
function notA500(res: LightMyRequestResponse, what: string): void {
  assert.ok(res.statusCode !== 500, `${what}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  if (res.statusCode >= 400) ErrorBody.parse(res.json());
}

test(
  'the disk fills up: uploads get 507, readiness turns false, nothing crashes, and it all recovers',
  { timeout: 600_000 },
  async (t) => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    t.after(() => process.off('unhandledRejection', onUnhandled));

    // one hook, last in first out: the app closes, then the tmpfs goes, then the folder
    const closers: (() => unknown)[] = [];
    t.after(async () => {
      for (const c of closers.reverse()) await c();
    });
    const dir = mkdtempSync(join(tmpdir(), 'tazamun-disk-full-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const data = join(dir, 'data');
    mkdirSync(data);
    const refused = mountTmpfs(closers, data, '40m');
    if (refused) {
      // Loud on purpose: a run without the mount proves less, and says so in the TAP output.
      const why = `tmpfs could not be mounted (${refused}); this run cannot fill a real disk`;
      t.diagnostic(why);
      console.warn(`[disk-full.test] ${why}`);
      throw new Error(`${why}. Run the server suite as root (CI does) to test a full disk for real.`);
    }
    // SQLite: the database file lives on the tmpfs too, so it fills with the files
    const config = testConfig(data, { minFreeDiskBytes: MARGIN });
    const jobs = {
      ...loadConfig({}).jobs,
      concurrency: 1,
      leaseMs: 3000,
      pollMs: 200,
      demoMediaDir: null,
      seedDemos: false,
    };
    const app = await buildApp(config, {
      clock: new ManualClock(new Date().toISOString()),
      logger: false,
      jobs,
    });
    await app.ready();
    closers.push(() => app.close());

    const u = await approvedUser(app);
    const clip = evalClip();
    const audio = readFileSync(clip.wav);
    const avatar = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#c83' } })
      .png()
      .toBuffer();

    // an alignment is queued, and the disk fills while its engine runs: its progress writes fail on
    // SQLite, its result cannot be written
    const first = await send(app, u.access, audio, clip.text);
    assert.equal(first.statusCode, 202, first.body);
    const firstId = first.json().id as string;
    await until('the engine aligning', () => app.jobs.engine.runs.runs === 1);

    const filler = join(data, 'filler.bin');
    const filled = fillDisk(filler);
    t.diagnostic(`filled ${Math.round(filled / 1024)} KB; ${await freeBytes(data)} bytes left`);
    assert.ok((await freeBytes(data)) < MARGIN);

    // uploads and avatars: 507 before the body is read, in the catalogue's shape, in each language
    const full = await send(app, u.access, audio, clip.text);
    const body = expectError(full, 507, 'insufficient_storage');
    assert.equal(
      body.detail,
      'The server is running out of storage space; uploads are paused. Please try again later.',
    );
    assert.equal(typeof body.request_id, 'string');
    const { payload, headers } = multipart([
      { name: 'avatar', filename: 'a.png', content: avatar, contentType: 'image/png' },
    ]);
    const fr = await app.inject({
      method: 'POST',
      url: '/api/auth/avatar/',
      payload,
      headers: { ...headers, ...bearer(u.access), 'accept-language': 'fr' },
    });
    expectError(fr, 507, 'insufficient_storage');
    assert.match(fr.json().detail, /^Le serveur manque d'espace de stockage/);
    // the refused uploads used no quota
    const quota = await app.deps.db
      .selectFrom('users')
      .select('used_today')
      .where('id', '=', u.id)
      .executeTakeFirstOrThrow();
    assert.equal(quota.used_today, 1);

    // the engine finishes on the full disk; its result cannot be written, and the job stays on
    await until('the engine done', async () => {
      notA500(
        await app.inject({ url: `/api/alignments/${firstId}/`, headers: bearer(u.access) }),
        'job status',
      );
      return app.jobs.engine.runs.ended === 1;
    });

    const ready = await app.inject({ url: '/api/ready/' });
    const signIn = await login(app, u.email, u.password);
    if (TEST_DB === 'sqlite') {
      // reads work, writes do not: not ready, and a sign-in (it writes a session) is a 507, not a 500
      expectError(ready, 503, 'service_unavailable');
      assert.deepEqual(ready.json().checks, { database: 'not_writable', disk: 'low_space' });
      expectError(signIn, 507, 'insufficient_storage');
    } else {
      // the database has its own disk: it stays ready and sign-ins work; only files are refused, and
      // readiness says so (degraded)
      assert.equal(ready.statusCode, 200, ready.body);
      assert.deepEqual(ready.json(), {
        ready: true,
        degraded: true,
        checks: { database: 'ok', workers: 'ok', disk: 'low_space' },
      });
      assert.equal(signIn.statusCode, 200, signIn.body);
    }
    notA500(await app.inject({ url: '/api/health/' }), 'health');
    assert.equal((await app.inject({ url: '/api/health/' })).statusCode, 200, 'the process is alive');

    // space comes back
    rmSync(filler);
    assert.ok((await freeBytes(data)) > MARGIN);
    assert.equal((await app.inject({ url: '/api/ready/' })).statusCode, 200);
    const again = await login(app, u.email, u.password);
    assert.equal(again.statusCode, 200, again.body);
    const second = await send(app, u.access, audio, clip.text);
    assert.equal(second.statusCode, 202, second.body);
    // both jobs finish; the first with the result it held through the full disk: its engine ran once
    const end1 = await waitForStatus(app, u.access, firstId);
    const end2 = await waitForStatus(app, u.access, second.json().id as string);
    assert.equal(end1.status, 'completed', JSON.stringify(end1));
    assert.equal(end2.status, 'completed', JSON.stringify(end2));
    assert.deepEqual(app.jobs.engine.runs, { runs: 2, ended: 2 }, 'no alignment was computed twice');
    const row = await app.deps.db
      .selectFrom('jobs')
      .select(['attempts', 'failures', 'last_error'])
      .where('alignment_id', '=', firstId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      { attempts: Number(row.attempts), failures: Number(row.failures), last_error: row.last_error },
      { attempts: 1, failures: 0, last_error: null },
    );
    assert.deepEqual(unhandled, [], 'no promise rejection went unhandled');
  },
);
