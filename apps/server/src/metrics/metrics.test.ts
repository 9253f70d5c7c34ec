// GET /metrics scraped as Prometheus would, while real jobs run: an API process that only enqueues sees
// the queue depth rise and fall (read from the database), the process that runs the jobs counts their
// outcomes, durations and real-time factors by engine and language, and HTTP requests are counted by
// route template. Without METRICS_TOKEN the endpoint does not exist; with it, only the token opens it.
// Faulted (issue 29, item 7): a frozen Redis reads 0 on every connection, an idle pool has nobody
// waiting, event streams stay out of the latency histogram. The database down, a dead worker and a full
// disk are faulted in reliability/dependency-restart, scaled-shape and disk-space tests.
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import { alignmentFile } from '../jobs/alignment-files.ts';
import { TEST_DB, approvedUser, expectError } from '@tazamun/server/testing/test-app';
import { startRedis } from '@tazamun/server/testing/redis-server';
import { until } from '@tazamun/server/testing/until';
import {
  createJobsTestApp,
  evalClip,
  ffmpeg,
  tempDir,
  upload,
  waitForStatus,
} from '@tazamun/server/testing/jobs-test-app';
import { loadConfig } from '../config.ts';

const TOKEN = 'scrape-token-0123456789abcdef';

async function scrape(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return res.body;
}

/** The value of one series; `labels` must all be present on the line (other labels may be too). */
function value(body: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of body.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return null;
}

test('/metrics is off without METRICS_TOKEN and refuses a wrong token', async (t) => {
  const { app: off } = await createJobsTestApp(t, { concurrency: 0 });
  expectError(await off.inject({ url: '/metrics' }), 404, 'not_found');
  const { app } = await createJobsTestApp(t, { concurrency: 0 }, { metricsToken: TOKEN });
  expectError(await app.inject({ url: '/metrics' }), 401, 'token_invalid');
  expectError(
    await app.inject({ url: '/metrics', headers: { authorization: 'Bearer scrape-token-0123456789abcdeX' } }),
    401,
    'token_invalid',
  );
  const body = await scrape(app);
  // a fresh deployment: every queue state at zero, the database answering
  for (const state of ['waiting', 'running', 'failed'])
    assert.equal(value(body, 'tazamun_queue_jobs', { kind: 'align', state }), 0);
  assert.equal(value(body, 'tazamun_database_up'), 1);
});

test('queue depth and job outcomes move as jobs run', { timeout: 300_000 }, async (t) => {
  // the API process: enqueues only (WORKER_CONCURRENCY=0), as in the scaled-out shape
  const { app: api, config } = await createJobsTestApp(t, { concurrency: 0 }, { metricsToken: TOKEN });
  const user = await approvedUser(api);
  const clip = evalClip();
  const media = tempDir(t);
  ffmpeg(['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '2', join(media, 'silence.wav')]);
  const send = async (wav: string, text: string) => {
    const res = await upload(api, user.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: text },
      { name: 'audio', filename: 'a.wav', content: readFileSync(wav) },
    ]);
    assert.equal(res.statusCode, 202, res.body);
    return res.json().id as string;
  };
  const ids = [
    await send(clip.wav, clip.text),
    await send(clip.wav, clip.text),
    await send(join(media, 'silence.wav'), 'nothing to hear'),
  ];
  // the third recording is damaged in storage before any worker reads it: its job fails (silence
  // itself completes with a no_speech verdict)
  await api.deps.files.store.put(
    api.deps.files.key(user.id, alignmentFile(ids[2]!, 'audio.wav')),
    Buffer.from('RIFF this is not audio'),
    { contentType: 'audio/wav' },
  );
  const before = await scrape(api);
  assert.equal(value(before, 'tazamun_queue_jobs', { kind: 'align', state: 'waiting' }), 3);
  assert.equal(value(before, 'tazamun_queue_jobs', { kind: 'align', state: 'running' }), 0);
  assert.equal(value(before, 'tazamun_queue_jobs', { kind: 'align', state: 'failed' }), 0);
  assert.equal(
    value(before, 'tazamun_http_request_duration_seconds_count', {
      method: 'POST',
      // the route template: POST / under the /api/alignments prefix
      route: '/api/alignments',
      status_code: '202',
    }),
    3,
  );

  // a worker joins: a second process on the same database that runs jobs
  const worker = await buildApp(config, {
    clock: new ManualClock(new Date().toISOString()),
    logger: false,
    jobs: { ...loadConfig({}).jobs, concurrency: 1, leaseMs: 5000, pollMs: 200, demoMediaDir: null },
  });
  t.after(() => worker.close());
  await worker.ready();
  const final = [];
  for (const id of ids) final.push((await waitForStatus(api, user.access, id)).status);
  assert.deepEqual(final, ['completed', 'completed', 'failed']);

  const after = await scrape(api);
  assert.equal(value(after, 'tazamun_queue_jobs', { kind: 'align', state: 'waiting' }), 0);
  assert.equal(value(after, 'tazamun_queue_jobs', { kind: 'align', state: 'running' }), 0);
  assert.equal(value(after, 'tazamun_queue_jobs', { kind: 'align', state: 'failed' }), 1);
  // the API process ran nothing itself
  assert.equal(value(after, 'tazamun_job_runs_total'), null);

  const ran = await scrape(worker);
  const completed = { kind: 'align', outcome: 'completed', language: 'eng' };
  const completedLine = ran.split('\n').find((l) => /^tazamun_job_runs_total\{.*outcome="completed"/.test(l));
  const engine = /engine="([^"]+)"/.exec(completedLine ?? '')?.[1];
  assert.ok(engine && engine !== 'none', `the completed runs name their engine: ${engine}`);
  assert.equal(value(ran, 'tazamun_job_runs_total', { ...completed, engine }), 2);
  assert.equal(
    value(ran, 'tazamun_job_runs_total', { kind: 'align', outcome: 'failed', language: 'eng' }),
    1,
  );
  assert.equal(value(ran, 'tazamun_job_duration_seconds_count', { ...completed, engine }), 2);
  assert.equal(value(ran, 'tazamun_alignment_real_time_factor_count', { engine, language: 'eng' }), 2);
  assert.ok((value(ran, 'tazamun_alignment_real_time_factor_sum', { engine, language: 'eng' }) ?? 0) > 0);
  assert.equal(value(ran, 'tazamun_queue_jobs', { kind: 'align', state: 'failed' }), 1);
});

test('Redis frozen: every connection reads down, one log line each way; idle pool; streams apart', async (t) => {
  const redis = await startRedis();
  t.after(() => redis.stop());
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const { app } = await createJobsTestApp(
    t,
    { concurrency: 0 },
    { metricsToken: TOKEN, redisUrl: redis.url },
    { logger: { level: 'info', stream: sink } },
  );
  const connections = ['signals', 'rate_limits', 'queue'];
  const up = (body: string) => connections.map((c) => value(body, 'tazamun_redis_up', { connection: c }));
  // the queue's connection is made when the queue starts and may still be connecting once the app is
  // ready: every connection up is the starting point, waited for
  await until('every Redis connection up', async () => up(await scrape(app)).every((v) => v === 1));

  // frozen: connected, answering nothing. The socket state says "ready"; the PING the scrape sends
  // does not come back, so each connection reads 0, and the watch says so once
  const redisLines = (msg: string) => lines.filter((l) => l.msg === msg && l.dependency === 'redis');
  redis.pause();
  try {
    await until('the watch to see Redis gone', () => redisLines('dependency unavailable').length > 0);
    assert.deepEqual(up(await scrape(app)), [0, 0, 0]);
  } finally {
    redis.resume();
  }
  await until('the watch to see Redis back', () => redisLines('dependency back').length > 0);
  assert.deepEqual(up(await scrape(app)), [1, 1, 1]);
  assert.equal(redisLines('dependency unavailable').length, 1);
  assert.equal(redisLines('dependency back').length, 1);
  assert.ok(Number(redisLines('dependency back')[0]!.down_ms) > 0);

  // an idle PostgreSQL pool has nobody waiting: the scrape's own queries are not counted
  if (TEST_DB === 'postgres') {
    for (let i = 0; i < 3; i++)
      assert.equal(value(await scrape(app), 'tazamun_db_pool_connections', { state: 'waiting' }), 0);
  }

  // an event stream lasts as long as its job: not a request latency
  const user = await approvedUser(app);
  const clip = evalClip();
  const res = await upload(app, user.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
  ]);
  assert.equal(res.statusCode, 202, res.body);
  const id = res.json().id as string;
  const cancel = await app.inject({
    method: 'POST',
    url: `/api/alignments/${id}/cancel/`,
    headers: { authorization: `Bearer ${user.access}` },
  });
  assert.equal(cancel.statusCode, 200, cancel.body);
  const stream = await app.inject({
    url: `/api/alignments/${id}/events/`,
    headers: { authorization: `Bearer ${user.access}` },
  });
  assert.match(stream.body, /event: end\ndata: .*"status":"cancelled"/);
  const body = await scrape(app);
  assert.equal(
    value(body, 'tazamun_http_request_duration_seconds_count', { route: '/api/alignments/:id/events/' }),
    null,
  );
  assert.equal(
    value(body, 'tazamun_http_request_duration_seconds_count', {
      route: '/api/alignments/:id/cancel/',
      status_code: '200',
    }),
    1,
  );
});
