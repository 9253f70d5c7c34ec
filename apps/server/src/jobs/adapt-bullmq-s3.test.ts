// Adaptation in the scaled shape (issue 31): an API process that runs no jobs and a worker that gets
// them from BullMQ over a real redis-server, files in an S3 bucket (s3rver, a real S3 API on loopback).
// The adapt job reaches the worker through BullMQ like any other; its model goes into the bucket, not
// DATA_DIR/files; the worker that aligns a later upload with it fetches it once into its model cache;
// deleting the model empties its folder in the bucket and the cache, and the result keeps its name.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Queue } from 'bullmq';
import S3rver from 's3rver';
import { MANIFEST } from '@tazamun/aligner/adapt';
import { buildApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import type { Config } from '../config.ts';
import { loadConfig } from '../config.ts';
import { S3FileStore } from '../storage/s3-file-store.ts';
import { BULL_QUEUE_NAME } from './bull-job-queue.ts';
import { jobRowsFinal } from '@tazamun/server/testing/job-rows';
import { startRedis } from '@tazamun/server/testing/redis-server';
import { approvedUser, bearer, testConfig } from '@tazamun/server/testing/test-app';
import { tempDir } from '@tazamun/server/testing/jobs-test-app';
import {
  CORPUS_SPEAKERS,
  HELD_OUT_SPEAKER,
  speakerRecording,
} from '@tazamun/server/testing/adaptation-corpus';
import {
  adaptProject,
  alignRecording,
  createProject,
  useAdaptedModel,
} from '@tazamun/server/testing/model-flow';

function closers(t: TestContext): (close: () => Promise<unknown> | void) => void {
  const all: (() => Promise<unknown> | void)[] = [];
  t.after(async () => {
    for (const c of all.reverse()) await c();
  });
  return (c) => all.push(c);
}

async function s3rver(onClose: (c: () => Promise<unknown> | void) => void) {
  const directory = mkdtempSync(join(tmpdir(), 'tazamun-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'tazamun-models', configs: [] }],
  });
  const { port } = await server.run();
  onClose(async () => {
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });
  return loadConfig({
    S3_BUCKET: 'tazamun-models',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_PREFIX: 'tazamun',
  }).s3!;
}

async function app(
  onClose: (c: () => Promise<unknown>) => void,
  config: Config,
  redisUrl: string,
  concurrency: number,
) {
  const a = await buildApp(config, {
    clock: new ManualClock(new Date().toISOString()),
    logger: false,
    redisUrl,
    jobs: {
      ...loadConfig({}).jobs,
      concurrency,
      leaseMs: 5000,
      // a guard, not a speed requirement: the shared machine may be slow
      timeoutBaseMs: 1_800_000,
      demoMediaDir: null,
      seedDemos: false,
    },
  });
  await a.ready();
  onClose(() => a.close());
  return a;
}

test('BullMQ and S3: the adapt job reaches the worker, its model lives in the bucket and is fetched to align', async (t) => {
  const onClose = closers(t);
  const redis = await startRedis();
  onClose(() => redis.stop());
  const s3 = await s3rver(onClose);
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-adapt-bull-'));
  onClose(() => rmSync(dir, { recursive: true, force: true }));
  const config = testConfig(dir, { s3 });
  const api = await app(onClose, config, redis.url, 0);
  const worker = await app(onClose, { ...config }, redis.url, 1);
  const bull = new Queue(BULL_QUEUE_NAME, { connection: { url: redis.url }, prefix: 'tazamun' });
  onClose(() => bull.close());
  const bucket = new S3FileStore(s3);
  onClose(async () => bucket.destroy());
  const db = api.deps.db;
  const u = await approvedUser(api);
  const recordings = tempDir(t);
  const project = await createProject(api, u.access, 'Scaled');
  for (const s of CORPUS_SPEAKERS)
    await alignRecording(api, u.access, speakerRecording(recordings, s), project);

  const model = await adaptProject(api, u.access, project);
  assert.equal(model.status, 'completed', JSON.stringify(model.error));
  const job = await db
    .selectFrom('jobs')
    .select(['id', 'worker_id'])
    .where('model_id', '=', model.id)
    .executeTakeFirstOrThrow();
  assert.equal(job.worker_id, worker.jobs.queue.workerId, 'the worker ran it, from BullMQ');
  await jobRowsFinal(db, [job.id]);
  assert.equal(
    (await bull.getJob(job.id)) ?? 'absent',
    'absent',
    'BullMQ keeps nothing once the row is final',
  );

  // the model's files are in the bucket; nothing of it on the local disk's store
  const folder = `users/${u.id}/models/${model.id}/`;
  const stored = await bucket.list(folder);
  assert.ok(stored.some((o) => o.key === `${folder}${MANIFEST}`));
  assert.equal(
    stored.reduce((a, o) => a + o.size, 0),
    model.figures!.size_bytes,
  );
  assert.equal(existsSync(join(dir, 'files')), false, 'nothing lands in DATA_DIR/files');
  const cache = join(dir, 'cache', 'models', model.id);
  assert.equal(existsSync(cache), false, 'not fetched before an alignment needs it');

  // an upload to the project: the worker fetches the model once and aligns with it
  await useAdaptedModel(api, u.access, project, true);
  const held = speakerRecording(recordings, HELD_OUT_SPEAKER);
  const adapted = await alignRecording(api, u.access, held, project);
  assert.equal(adapted.result.engine.model, model.name);
  assert.ok(existsSync(join(cache, MANIFEST)), 'the worker keeps a local copy');
  assert.deepEqual(readdirSync(cache).sort(), stored.map((o) => o.key.slice(folder.length)).sort());
  // the adaptation's and the alignments' work files are gone
  assert.deepEqual(readdirSync(join(dir, 'tmp')), []);

  // deleted: the bucket's folder and the cached copy go; the result keeps the model's name
  const del = await api.inject({
    method: 'DELETE',
    url: `/api/projects/${project}/models/${model.id}/`,
    headers: bearer(u.access),
  });
  assert.equal(del.statusCode, 204, del.body);
  assert.deepEqual(await bucket.list(folder), []);
  assert.equal(existsSync(cache), false);
  const kept = (
    await api.inject({ url: `/api/alignments/${adapted.id}/`, headers: bearer(u.access) })
  ).json();
  assert.equal(kept.result.engine.model, model.name);
});
