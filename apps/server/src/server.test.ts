// server.ts as a real process: a bad environment is reported whole, a good one listens and a
// SIGTERM closes it cleanly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '@tazamun/server/testing/until';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), 'server.ts');

test('a bad environment lists every bad variable and exits 78', async () => {
  const err = await promisify(execFile)(process.execPath, ['--import', 'tsx', SERVER], {
    env: {
      ...process.env,
      PORT: 'http',
      AUTO_APPROVE: 'perhaps',
      DATABASE_URL: 'postgres://db/tazamun',
      // read by the job, Redis and storage modules, checked by the same boot parse
      JOB_LEASE: 'never',
      REDIS_URL: 'http://cache',
      S3_BUCKET: 'b',
      S3_ACCESS_KEY_ID: 'id-without-secret',
    },
  }).then(
    () => null,
    (e: { code: number; stderr: string }) => e,
  );
  assert.ok(err, 'the server started with a bad environment');
  assert.equal(err.code, 78);
  assert.match(err.stderr, /PORT:/);
  assert.match(err.stderr, /AUTO_APPROVE:/);
  assert.match(err.stderr, /JOB_LEASE:/);
  assert.match(err.stderr, /REDIS_URL:/);
  assert.match(err.stderr, /S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY:/);
});

test('with no configuration it generates a secret, listens, answers and stops on SIGTERM', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-server-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: {
      ...process.env,
      DATA_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      JWT_SECRET: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${out}`)));
  });
  assert.match(out, /JWT_SECRET not set: generated one and saved it/);
  assert.ok(existsSync(join(dir, 'secret')));
  assert.ok(existsSync(join(dir, 'tazamun.sqlite')));
  const health = (await (await fetch(`${url}/api/health/`)).json()) as { status: string; db: string };
  assert.deepEqual([health.status, health.db], ['ok', 'ok']);
  // Probes log at debug; an ordinary request logs one "request completed" line at info. It reaches our
  // pipe asynchronously after the response: wait for it, then check it.
  assert.equal((await fetch(`${url}/api/config/`)).status, 200);
  const logs = await until('the request logged', () => {
    const lines = out.split('\n').filter((l) => l.includes('"url":"/api/config/"'));
    return lines.length > 0 ? lines : null;
  });
  for (const line of logs) assert.match(line, /"reqId":"[0-9a-f-]{36}"/, 'request logs carry the request id');
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.match(out, /shutting down/);
});
