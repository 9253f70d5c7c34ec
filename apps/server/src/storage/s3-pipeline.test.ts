// The whole file path of an alignment with S3 configured: upload → real aligner → result → exports →
// audio byte ranges → karaoke video → personal data export → avatar → deletion, against s3rver (a real
// S3 API on loopback) through the AWS SDK. Nothing may land in DATA_DIR/files, and the temp copies the
// tools read (ffprobe, the aligner, ffmpeg) must be gone afterwards.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '@tazamun/server/testing/until';
import S3rver from 's3rver';
import sharp from 'sharp';
import { API_SERVING, startChild } from '@tazamun/server/testing/child-process';
import { GOOD_PASSWORD, approvedUser, bearer } from '@tazamun/server/testing/test-app';
import { readZip } from '@tazamun/server/testing/zip-reader';
import {
  createJobsTestApp,
  evalClip,
  multipart,
  tempDir,
  upload,
  waitForStatus,
} from '@tazamun/server/testing/jobs-test-app';
import { loadConfig } from '../config.ts';
import { S3FileStore } from './s3-file-store.ts';

function walkFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

async function s3rver(t: TestContext) {
  const directory = mkdtempSync(join(tmpdir(), 'tazamun-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'tazamun-pipeline', configs: [] }],
  });
  const { port } = await server.run();
  t.after(async () => {
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });
  const config = loadConfig({
    S3_BUCKET: 'tazamun-pipeline',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_PREFIX: 'tazamun',
  }).s3!;
  return config;
}

test(
  'with S3 configured, uploads, results, exports, audio ranges, video, avatars and the data export use the bucket',
  { timeout: 300_000 },
  async (t) => {
    const s3 = await s3rver(t);
    const { app, dir } = await createJobsTestApp(t, {}, { s3 });
    // an independent client on the same bucket, to see what the server stored
    const bucket = new S3FileStore(s3);
    t.after(() => bucket.destroy());
    const keys = async (prefix: string) => (await bucket.list(prefix)).map((o) => o.key);

    const u = await approvedUser(app);
    const clip = evalClip();
    const wav = readFileSync(clip.wav);
    const res = await upload(app, u.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: clip.text },
      { name: 'audio', filename: 'clip.wav', content: wav, contentType: 'audio/wav' },
    ]);
    assert.equal(res.statusCode, 202, res.body);
    const id = res.json().id as string;
    const folder = `users/${u.id}/alignments/${id}/`;
    assert.ok((await keys(folder)).includes(`${folder}audio.wav`));
    assert.equal((await bucket.stat(`${folder}audio.wav`))?.size, wav.length);

    const done = await waitForStatus(app, u.access, id);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.deepEqual(await keys(folder), [`${folder}audio.wav`, `${folder}result.json`, `${folder}text.txt`]);

    const detail = await app.inject({ url: `/api/alignments/${id}/`, headers: bearer(u.access) });
    assert.equal(detail.statusCode, 200);
    const body = detail.json() as { result: { words: unknown[] }; original_text: string };
    assert.ok(body.result.words.length > 3);
    assert.equal(body.original_text, clip.text);

    // exports read the result (and, embedded in the JSON, the audio) from the bucket
    const json = await app.inject({
      url: `/api/alignments/${id}/export/json/?include_audio=true`,
      headers: bearer(u.access),
    });
    assert.equal(json.statusCode, 200, json.body);
    const exported = json.json() as { audio_data: { base64: string } };
    assert.ok(Buffer.from(exported.audio_data.base64, 'base64').equals(wav));
    const grid = await app.inject({
      url: `/api/alignments/${id}/export/textgrid/`,
      headers: bearer(u.access),
    });
    assert.equal(grid.statusCode, 200);
    assert.match(grid.body, /File type = "ooTextFile"/);

    // the player's byte ranges reach GetObject as ranges
    const signed = (
      await app.inject({ url: `/api/alignments/${id}/audio-url/`, headers: bearer(u.access) })
    ).json() as { url: string };
    const full = await app.inject({ url: signed.url });
    assert.equal(full.statusCode, 200);
    assert.ok(full.rawPayload.equals(wav));
    const part = await app.inject({ url: signed.url, headers: { range: 'bytes=1000-1999' } });
    assert.equal(part.statusCode, 206);
    assert.equal(part.headers['content-range'], `bytes 1000-1999/${wav.length}`);
    assert.ok(part.rawPayload.equals(wav.subarray(1000, 2000)));
    const tail = await app.inject({ url: signed.url, headers: { range: 'bytes=-10' } });
    assert.ok(tail.rawPayload.equals(wav.subarray(wav.length - 10)));
    assert.equal(
      (await app.inject({ url: signed.url, headers: { range: `bytes=${wav.length}-` } })).statusCode,
      416,
    );

    // the karaoke video: ffmpeg reads a temp copy of the audio, the MP4 is uploaded
    const post = await app.inject({
      method: 'POST',
      url: `/api/alignments/${id}/video/`,
      headers: bearer(u.access),
      payload: { resolution: 'sd' },
    });
    assert.equal(post.statusCode, 202, post.body);
    const video = await until('the video render ended', async () => {
      const res = await app.inject({ url: `/api/alignments/${id}/video/`, headers: bearer(u.access) });
      const v = res.json() as { status: string; download_url: string; file_size: number; id: string };
      return v.status === 'queued' || v.status === 'processing' ? null : v;
    });
    assert.equal(video.status, 'completed', JSON.stringify(video));
    const mp4Key = (await keys(folder)).find((k) => k.endsWith('.mp4'));
    assert.ok(mp4Key, 'the MP4 is in the bucket');
    const mp4 = await app.inject({ url: video.download_url, headers: bearer(u.access) });
    assert.equal(mp4.statusCode, 200);
    assert.equal(mp4.rawPayload.length, video.file_size);
    assert.equal(mp4.rawPayload.subarray(4, 8).toString('latin1'), 'ftyp');

    // avatar: stored, served, replaced
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#c8285a' } })
      .png()
      .toBuffer();
    const form = multipart([{ name: 'avatar', filename: 'me.png', content: png, contentType: 'image/png' }]);
    const av = await app.inject({
      method: 'POST',
      url: '/api/auth/avatar/',
      payload: form.payload,
      headers: { ...form.headers, ...bearer(u.access) },
    });
    assert.equal(av.statusCode, 200, av.body);
    const avatarUrl = av.json().avatar as string;
    const img = await app.inject({ url: avatarUrl });
    assert.equal(img.statusCode, 200);
    assert.equal(img.headers['content-type'], 'image/webp');
    assert.equal((await keys(`users/${u.id}/avatar/`)).length, 1);

    // the personal data export streams every object of the account from the bucket
    const zipRes = await app.inject({ url: '/api/auth/export/', headers: bearer(u.access) });
    assert.equal(zipRes.statusCode, 200);
    const zip = readZip(zipRes.rawPayload);
    assert.ok(zip.get(`files/alignments/${id}/audio.wav`)!.equals(wav));
    assert.ok(zip.get(`files/alignments/${id}/result.json`)!.length > 100);
    assert.ok([...zip.keys()].some((k) => k.startsWith('files/avatar/') && k.endsWith('.webp')));

    // nothing went to the local disk, and no temp copy survived
    assert.deepEqual(walkFiles(join(dir, 'files')), []);
    assert.deepEqual(walkFiles(join(dir, 'tmp')), []);

    // deleting the alignment removes its objects
    const del = await app.inject({
      method: 'DELETE',
      url: `/api/alignments/${id}/`,
      headers: bearer(u.access),
    });
    assert.equal(del.statusCode, 204);
    assert.deepEqual(await keys(folder), []);
    assert.equal((await keys(`users/${u.id}/`)).length, 1, 'only the avatar is left');
  },
);

test('a refused upload leaves nothing in the bucket or in the temp folder', async (t) => {
  const s3 = await s3rver(t);
  const { app, dir } = await createJobsTestApp(t, {}, { s3 });
  const bucket = new S3FileStore(s3);
  t.after(() => bucket.destroy());
  const u = await approvedUser(app);
  const res = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: 'hello' },
    { name: 'audio', filename: 'fake.wav', content: Buffer.from('RIFF....WAVEnot really audio') },
  ]);
  assert.equal(res.statusCode, 415, res.body);
  assert.deepEqual(await bucket.list('users/'), []);
  assert.deepEqual(walkFiles(join(dir, 'tmp')), []);
});

test(
  'an API process and a worker process with separate DATA_DIRs share files only through the bucket',
  { timeout: 180_000 },
  async (t) => {
    const s3 = await s3rver(t);
    const shared = tempDir(t);
    const apiDir = tempDir(t);
    const workerDir = tempDir(t);
    const env = {
      DATABASE_URL: `sqlite:${join(shared, 'tazamun.sqlite')}`,
      JWT_SECRET: 'worker-test-secret-that-is-long-enough-0123456789',
      AUTO_APPROVE: 'true',
      DEMO_MEDIA_DIR: '',
      LOG_LEVEL: 'info',
      REDIS_URL: '',
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint!,
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: s3.prefix,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    };
    const api = await startChild(t, 'server.ts', {
      env: {
        ...env,
        DATA_DIR: apiDir,
        PORT: '0',
        HOST: '127.0.0.1',
        WORKER_CONCURRENCY: '0',
        WEB_DIST: join(apiDir, 'no-web'),
      },
      ready: API_SERVING,
    });
    const url = api.match[1]!;
    // the worker builds its UserFiles from DATA_DIR alone: the bucket must come from the environment
    await startChild(t, 'worker.ts', {
      env: { ...env, DATA_DIR: workerDir, WORKER_CONCURRENCY: '1' },
      ready: /worker started/,
    });

    const reg = (await (
      await fetch(`${url}/api/auth/register/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          first_name: 'Rania',
          last_name: 'Bensaid',
          email: 'rania@example.org',
          password: GOOD_PASSWORD,
          password_confirm: GOOD_PASSWORD,
        }),
      })
    ).json()) as { tokens: { access: string } };
    const auth = { authorization: `Bearer ${reg.tokens.access}` };
    const clip = evalClip();
    const form = new FormData();
    form.set('language', 'eng');
    form.set('text', clip.text);
    form.set('audio', new Blob([readFileSync(clip.wav)]), 'a.wav');
    const res = await fetch(`${url}/api/alignments/`, { method: 'POST', headers: auth, body: form });
    assert.equal(res.status, 202, await res.clone().text());
    const id = ((await res.json()) as { id: string }).id;
    const stream = await (await fetch(`${url}/api/alignments/${id}/events/`, { headers: auth })).text();
    assert.match(stream, /event: end\ndata: .*"status":"completed"/);
    const detail = (await (await fetch(`${url}/api/alignments/${id}/`, { headers: auth })).json()) as {
      result: { words: { start: number | null }[] };
    };
    assert.ok(detail.result.words.filter((w) => w.start !== null).length > 3);

    // neither process kept a file of its own
    assert.deepEqual(walkFiles(join(apiDir, 'files')), []);
    assert.deepEqual(walkFiles(join(workerDir, 'files')), []);
    assert.deepEqual(walkFiles(join(apiDir, 'tmp')), []);
    assert.deepEqual(walkFiles(join(workerDir, 'tmp')), []);
    const bucket = new S3FileStore(s3);
    t.after(() => bucket.destroy());
    const keys = (await bucket.list('users/')).map((o) => o.key.split('/').slice(-1)[0]).sort();
    assert.deepEqual(keys, ['audio.wav', 'result.json', 'text.txt']);
  },
);
