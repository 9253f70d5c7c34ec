// The server as a real process, killed with SIGKILL while a job runs, then started again on the same
// DATA_DIR: the job's lease expires, it is queued again and finishes; the upload was not lost and the
// quota was used once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '@tazamun/server/testing/until';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { longClip, tempDir } from '@tazamun/server/testing/jobs-test-app';
import { GOOD_PASSWORD } from '@tazamun/server/testing/test-app';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), '../server.ts');

function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      JWT_SECRET: 'crash-test-secret-that-is-long-enough-0123456789',
      AUTO_APPROVE: 'true',
      DATABASE_URL: '',
      WORKER_CONCURRENCY: '1',
      JOB_LEASE: '2s',
      DEMO_MEDIA_DIR: '',
      WEB_DIST: join(dataDir, 'no-web'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${out}`)));
  });
}

async function json(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const res = await fetch(url, init);
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

test(
  'a job survives a SIGKILL of the server in the middle of its alignment',
  { timeout: 300_000 },
  async (t) => {
    const dataDir = tempDir(t);
    const { wav: audio, text } = longClip(tempDir(t));

    let server = await startServer(dataDir);
    t.after(() => {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    });
    const reg = await json(`${server.url}/api/auth/register/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        first_name: 'Nadia',
        last_name: 'Benali',
        email: 'nadia@example.org',
        password: GOOD_PASSWORD,
        password_confirm: GOOD_PASSWORD,
      }),
    });
    const access = (reg.tokens as { access: string }).access;
    const auth = { authorization: `Bearer ${access}` };
    const form = new FormData();
    form.set('language', 'eng');
    form.set('text', text);
    form.set('audio', new Blob([readFileSync(audio)]), 'long.wav');
    const created = await json(`${server.url}/api/alignments/`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    const id = created.id as string;

    await until('the job in its alignment step', async () => {
      const p = await json(`${server.url}/api/alignments/${id}/progress/`, { headers: auth });
      assert.notEqual(p.status, 'completed', 'the job ended before it could be interrupted');
      return p.status === 'processing' && p.step === 'alignment';
    });
    const killed = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGKILL');
    await killed;

    server = await startServer(dataDir);
    const events = await fetch(`${server.url}/api/alignments/${id}/events/?access_token=${access}`);
    const stream = await events.text(); // ends with the final state
    assert.match(stream, /event: end\ndata: .*"status":"completed"/);
    const detail = await json(`${server.url}/api/alignments/${id}/`, { headers: auth });
    assert.equal(detail.status, 'completed');
    assert.equal((detail.result as { words: unknown[] }).words.length, text.split(/\s+/).length);
    const quota = (await json(`${server.url}/api/auth/quota/`, { headers: auth })).quota as {
      used_today: number;
    };
    assert.equal(quota.used_today, 1, 'the quota was used once');

    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    const db = new Database(join(dataDir, 'tazamun.sqlite'), { readonly: true });
    const job = db.prepare('select status, attempts from jobs where alignment_id = ?').get(id) as {
      status: string;
      attempts: number;
    };
    db.close();
    assert.deepEqual(job, { status: 'completed', attempts: 2 });
  },
);
