// The log lines an operator follows, read from the JSON stream of a real app running real jobs: one
// line per request with the user id, probes only at debug, and for each job a start and an end line
// with the alignment id, the upload's request id, the duration and the outcome.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import { approvedUser, bearer, testConfig } from '@tazamun/server/testing/test-app';
import { evalClip, multipart, waitForStatus } from '@tazamun/server/testing/jobs-test-app';
import { until } from '@tazamun/server/testing/until';
import { loadConfig } from '../config.ts';

test('request lines carry the user id; job lines carry alignment, request id, duration, outcome', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-log-test-'));
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l.trim()) lines.push(JSON.parse(l));
      done();
    },
  });
  const app = await buildApp(testConfig(dir), {
    clock: new ManualClock(new Date().toISOString()),
    logger: { level: 'info', stream },
    jobs: { ...loadConfig({}).jobs, concurrency: 1, leaseMs: 5000, pollMs: 200, demoMediaDir: null },
  });
  t.after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await app.ready();
  const user = await approvedUser(app);
  const clip = evalClip();
  const requestIds = ['upload-request-0001', 'upload-request-0002'];
  const ids: string[] = [];
  for (const requestId of requestIds) {
    const { payload, headers } = multipart([
      { name: 'language', value: 'eng' },
      { name: 'text', value: clip.text },
      { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/alignments/',
      payload,
      headers: { ...headers, ...bearer(user.access), 'x-request-id': requestId },
    });
    assert.equal(res.statusCode, 202, res.body);
    ids.push(res.json().id as string);
  }
  for (const id of ids) assert.equal((await waitForStatus(app, user.access, id)).status, 'completed');
  // A job's end line is written after its run returns, which is after the alignment shows as completed:
  // wait for both before reading them.
  await until(
    "both jobs' end lines",
    () =>
      lines.filter((l) => l.msg === 'job ended' && ids.includes(l.alignment as string)).length === ids.length,
  );
  assert.equal((await app.inject({ url: '/api/ready/' })).statusCode, 200);

  const uploads = lines.filter((l) => l.msg === 'request completed' && l.route === '/api/alignments');
  assert.deepEqual(
    uploads.map((l) => [l.reqId, l.method, l.status, l.user]),
    requestIds.map((r) => [r, 'POST', 202, user.id]),
  );
  // probes are logged at debug only, and the app logs at info
  assert.equal(lines.filter((l) => l.route === '/api/ready/').length, 0);

  for (const [i, id] of ids.entries()) {
    const started = lines.filter((l) => l.msg === 'job started' && l.alignment === id);
    const ended = lines.filter((l) => l.msg === 'job ended' && l.alignment === id);
    assert.equal(started.length, 1);
    assert.equal(ended.length, 1);
    assert.equal(started[0]!.request_id, requestIds[i]);
    assert.equal(started[0]!.attempt, 1);
    assert.equal(ended[0]!.request_id, requestIds[i]);
    assert.equal(ended[0]!.outcome, 'completed');
    assert.equal(ended[0]!.language, 'eng');
    assert.equal(typeof ended[0]!.duration_ms, 'number');
    assert.equal(ended[0]!.job, started[0]!.job);
  }
});
