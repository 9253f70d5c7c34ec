// The back ends a configuration does not use are not loaded (issue 29, item 13): an API process
// without REDIS_URL and S3_BUCKET serves without ever resolving BullMQ, ioredis or the AWS SDK (about
// 0.3 s of start-up between them), and a worker with REDIS_URL loads BullMQ and ioredis but not the
// SDK. What a child process loads is recorded by a module resolve hook (test-support/module-trace.mjs).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { API_SERVING, SERVER_SRC, startChild } from '@tazamun/server/testing/child-process';
import { startRedis } from '@tazamun/server/testing/redis-server';
import { tempDir } from '@tazamun/server/testing/jobs-test-app';

const HOOK = join(SERVER_SRC, '../test-support/module-trace.mjs');

function traced(dir: string, name: string) {
  const file = join(dir, `${name}.txt`);
  writeFileSync(file, '');
  return {
    env: { TAZAMUN_MODULE_TRACE: file, NODE_OPTIONS: `--import=${HOOK}` },
    loaded: () => readFileSync(file, 'utf8').split('\n').filter(Boolean).sort(),
  };
}

test('without REDIS_URL and S3_BUCKET nothing of BullMQ, ioredis or the S3 SDK is loaded', async (t) => {
  const dir = tempDir(t);
  const trace = traced(dir, 'api');
  const api = await startChild(t, 'server.ts', {
    env: {
      ...trace.env,
      DATA_DIR: dir,
      DATABASE_URL: '',
      REDIS_URL: '',
      S3_BUCKET: '',
      PORT: '0',
      HOST: '127.0.0.1',
      WORKER_CONCURRENCY: '1',
      JWT_SECRET: 'lazy-deps-test-secret-that-is-long-enough-0123',
      DEMO_MEDIA_DIR: '',
      WEB_DIST: join(dir, 'no-web'),
    },
    ready: API_SERVING,
    readyWithinMs: 600_000,
  });
  const url = api.match[1]!;
  assert.equal((await fetch(`${url}/api/ready/`)).status, 200);
  assert.deepEqual(trace.loaded(), []);
});

test('a worker with REDIS_URL loads BullMQ and ioredis, still not the S3 SDK', async (t) => {
  const redis = await startRedis();
  t.after(() => redis.stop());
  const dir = tempDir(t);
  const trace = traced(dir, 'worker');
  await startChild(t, 'worker.ts', {
    env: {
      ...trace.env,
      DATA_DIR: dir,
      DATABASE_URL: '',
      REDIS_URL: redis.url,
      S3_BUCKET: '',
      WORKER_CONCURRENCY: '1',
      JWT_SECRET: 'lazy-deps-test-secret-that-is-long-enough-0123',
      DEMO_MEDIA_DIR: '',
    },
    ready: /"queue":"bullmq","msg":"worker started"/,
    readyWithinMs: 600_000,
  });
  assert.deepEqual(trace.loaded(), ['bullmq', 'ioredis']);
});
