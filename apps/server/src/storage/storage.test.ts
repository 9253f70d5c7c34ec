// One suite, two back-ends: the local disk and an S3-compatible server (s3rver, a real S3 API
// implementation on loopback) reached through the AWS SDK exactly as a deployment would.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import S3rver from 's3rver';
import { LocalFileStore, StorageNotFound, checkKey } from './storage.ts';
import type { FileStore } from './storage.ts';
import { loadConfig } from '../config.ts';
import { S3FileStore } from './s3-file-store.ts';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function tempDir(t: TestContext, name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `tazamun-${name}-`));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function s3Store(t: TestContext, prefix = ''): Promise<S3FileStore> {
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: tempDir(t, 's3rver'),
    configureBuckets: [{ name: 'tazamun-test', configs: [] }],
  });
  const { port } = (await server.run()) as { port: number };
  t.after(() => server.close());
  const config = loadConfig({
    S3_BUCKET: 'tazamun-test',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_PREFIX: prefix,
  }).s3;
  assert.ok(config);
  const store = new S3FileStore(config);
  t.after(() => store.destroy());
  return store;
}

async function exerciseStore(store: FileStore): Promise<void> {
  const arabic = 'بسم الله الرحمن الرحيم';
  const a = await store.put('users/u1/alignments/a1/transcript.txt', Buffer.from(arabic));
  assert.equal(a.size, Buffer.byteLength(arabic));
  await store.put(
    'users/u1/alignments/a1/audio.wav',
    Readable.from([Buffer.alloc(70_000, 1), Buffer.alloc(5, 2)]),
  );
  await store.put('users/u2/avatar.webp', Buffer.from('x'));
  assert.equal(await text(await store.get('users/u1/alignments/a1/transcript.txt')), arabic);
  assert.equal((await store.stat('users/u1/alignments/a1/audio.wav'))?.size, 70_005);
  assert.equal(await store.stat('users/u1/nothing'), null);
  await assert.rejects(store.get('users/u1/nothing'), StorageNotFound);

  assert.deepEqual(
    (await store.list('users/u1/')).map((o) => o.key),
    ['users/u1/alignments/a1/audio.wav', 'users/u1/alignments/a1/transcript.txt'],
  );
  // a prefix is a string prefix, not only a folder
  assert.deepEqual(
    (await store.list('users/u1/alignments/a1/t')).map((o) => o.key),
    ['users/u1/alignments/a1/transcript.txt'],
  );

  // A stream that breaks half-way stores nothing, not a truncated object.
  const broken = new Readable({
    read() {
      this.push(Buffer.alloc(1024, 3));
      this.destroy(new Error('client went away'));
    },
  });
  await assert.rejects(store.put('users/u1/half.wav', broken), /client went away/);
  assert.equal(await store.stat('users/u1/half.wav'), null);
  assert.equal((await store.list('users/u1/')).length, 2);

  await store.delete('users/u1/alignments/a1/transcript.txt');
  await store.delete('users/u1/alignments/a1/transcript.txt'); // absent: not an error
  await store.deletePrefix('users/u1/');
  assert.deepEqual(await store.list('users/u1/'), []);
  assert.deepEqual(
    (await store.list('users/')).map((o) => o.key),
    ['users/u2/avatar.webp'],
  );

  for (const bad of [
    '../etc/passwd',
    '/abs',
    'users/../../x',
    'a//b',
    'a\\b',
    'a/\u0000b',
    'a/\nb',
    '',
    'a/./b',
  ])
    await assert.rejects(store.put(bad, Buffer.from('x')), /unsafe storage key/, bad);
  await assert.rejects(store.list('../'), /unsafe storage key/);
}

test('keys that could leave the store are refused', () => {
  assert.equal(checkKey('users/a/b.wav'), 'users/a/b.wav');
  assert.equal(checkKey('users/', { prefix: true }), 'users/');
  assert.throws(() => checkKey('users/..'), /unsafe/);
  assert.throws(() => checkKey('users/'), /unsafe/);
});

test('local disk store: put/get/stat/list/delete, atomic writes', async (t) => {
  const root = tempDir(t, 'store');
  const store = new LocalFileStore(root);
  await exerciseStore(store);
  // no temp file survives the broken write
  const leftovers = readdirSync(root, { recursive: true }).filter((f) => String(f).endsWith('.partial'));
  assert.deepEqual(leftovers, []);
});

test('S3-compatible store through the AWS SDK against a loopback S3 server', async (t) => {
  await exerciseStore(await s3Store(t));
});

test('S3 store under a key prefix shares a bucket without seeing other keys', async (t) => {
  const store = await s3Store(t, 'tenant-a');
  await store.put('users/u9/x.txt', Buffer.from('x'));
  assert.deepEqual(
    (await store.list('users/')).map((o) => o.key),
    ['users/u9/x.txt'],
  );
  assert.equal(store.config.prefix, 'tenant-a/');
});

test('S3 configuration from the environment', () => {
  assert.equal(loadConfig({}).s3, null);
  const c = loadConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: '1' }).s3;
  assert.deepEqual(c, {
    bucket: 'b',
    endpoint: 'http://minio:9000',
    region: 'us-east-1',
    forcePathStyle: true,
    prefix: '',
    credentials: null,
  });
  assert.throws(() => loadConfig({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'only-id' }).s3, /together/);
  assert.throws(() => loadConfig({ S3_BUCKET: 'b', S3_PREFIX: '../x' }).s3, /unsafe/);
});
