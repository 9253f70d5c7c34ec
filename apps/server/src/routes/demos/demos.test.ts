// Demo gallery seeded from a media folder with a manifest (real recordings aligned by the engine in
// background jobs), idempotent; the public list with search and filters; publishing by an admin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '@tazamun/server/testing/until';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { approvedUser, bearer, expectError, makeAdmin } from '@tazamun/server/testing/test-app';
import { seedDemos } from '../../demos/seed-demos.ts';
import { DemoList } from '@tazamun/contracts/demos';
import type { Demo } from '@tazamun/contracts/demos';
import {
  EVAL_DIR,
  createJobsTestApp,
  evalClip,
  tempDir,
  upload,
  waitForStatus,
} from '@tazamun/server/testing/jobs-test-app';

test('seeding, the public gallery and admin publishing', { timeout: 300_000 }, async (t) => {
  const { app, dir } = await createJobsTestApp(t);
  const media = tempDir(t);
  const clip = evalClip();
  mkdirSync(join(media, 'timit'));
  copyFileSync(clip.wav, join(media, 'timit', 'audio.wav'));
  writeFileSync(join(media, 'timit', 'text.txt'), clip.text);
  writeFileSync(
    join(media, 'demos.json'),
    JSON.stringify({
      demos: [
        {
          key: 'timit-sa1',
          title: 'Dark suit',
          language: 'eng',
          category: 'read speech',
          description: 'A TIMIT calibration sentence.',
          licence: 'CC BY-NC-SA (TIMIT sample)',
          audio: 'timit/audio.wav',
          text_file: 'timit/text.txt',
        },
        {
          key: 'arabic',
          title: 'جملة',
          language: 'ara',
          category: 'synthetic speech',
          description: { en: 'Synthetic speech from eSpeak NG.', ar: 'كلام مُركَّب من eSpeak NG.' },
          licence: { en: 'Made for the project', fr: 'Réalisé pour le projet', ar: 'أُعدّ للمشروع' },
          audio: join(EVAL_DIR, 'ar-synthetic/arsyn_13.wav'),
          text_json: { file: join(EVAL_DIR, 'ar-synthetic/arsyn_13.json'), key: 'text' },
        },
        {
          key: 'gone',
          title: 'Missing',
          language: 'eng',
          category: 'x',
          licence: 'x',
          audio: 'nowhere.wav',
          text: 'x',
        },
      ],
    }),
  );
  const first = await seedDemos(app, media);
  assert.deepEqual(first, { created: ['timit-sa1', 'arabic'], skipped: [], missing: ['gone'] });
  const second = await seedDemos(app, media);
  assert.deepEqual(second.created, [], 'seeding twice adds nothing');
  assert.deepEqual(second.skipped, ['timit-sa1', 'arabic']);

  // Two demos exist from now on: being prepared until the engine has aligned them, then listed.
  const early = (await app.inject({ url: '/api/demos/' })).json();
  assert.equal(early.preparing + early.count, 2);
  const list = await until('both demos aligned and listed', async () => {
    const l = DemoList.parse((await app.inject({ url: '/api/demos/' })).json());
    return l.count === 2 ? l : null;
  });
  assert.equal(list.preparing, 0);
  assert.deepEqual(list.categories, ['read speech', 'synthetic speech']);
  // Per-language texts follow the request's language, English when one is missing.
  const licences = async (lang: string) =>
    (
      (await app.inject({ url: '/api/demos/?language=ara', headers: { 'accept-language': lang } })).json()
        .results as Demo[]
    ).map((d) => [d.description, d.licence]);
  assert.deepEqual(await licences('ar'), [['كلام مُركَّب من eSpeak NG.', 'أُعدّ للمشروع']]);
  assert.deepEqual(await licences('fr'), [['Synthetic speech from eSpeak NG.', 'Réalisé pour le projet']]);
  assert.deepEqual(await licences('en'), [['Synthetic speech from eSpeak NG.', 'Made for the project']]);
  assert.deepEqual(list.languages, ['ara', 'eng']);
  const q = async (qs: string) => (await app.inject({ url: `/api/demos/?${qs}` })).json().count as number;
  assert.equal(await q('language=ara'), 1);
  assert.equal(await q('category=read%20speech'), 1);
  assert.equal(await q('duration=short'), 2);
  assert.equal(await q('duration=long'), 0);
  assert.equal(await q('q=greasy'), 1, 'search reaches the transcript');
  assert.equal(await q('q=eSpeak'), 1);

  const demo = list.results.find((d) => d.language === 'eng');
  assert.ok(demo, 'the English demo is listed');
  const detail = (await app.inject({ url: `/api/demos/${demo.id}/` })).json();
  assert.equal(detail.original_text, clip.text);
  assert.equal(detail.result.words.length, 11);
  const audio = await app.inject({ url: detail.audio_url, headers: { range: 'bytes=0-3' } });
  assert.equal(audio.statusCode, 206);
  assert.equal(audio.body, 'RIFF');
  expectError(await app.inject({ url: '/api/demos/nope/' }), 404, 'not_found');
  // media are copied under DATA_DIR, owned by the gallery account
  assert.equal(readdirSync(join(dir, 'files', 'users', 'demo-gallery', 'alignments')).length, 2);

  const admin = await approvedUser(app);
  const user = await approvedUser(app);
  await makeAdmin(app, admin.id);
  const mine = await upload(app, admin.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
  ]);
  await waitForStatus(app, admin.access, mine.json().id);
  const payload = {
    alignment_id: mine.json().id,
    title: 'Published',
    category: 'lecture',
    licence: 'CC BY 4.0',
  };
  expectError(
    await app.inject({ method: 'POST', url: '/api/admin/demos/', headers: bearer(user.access), payload }),
    403,
    'admin_required',
  );
  const pub = await app.inject({
    method: 'POST',
    url: '/api/admin/demos/',
    headers: bearer(admin.access),
    payload,
  });
  assert.equal(pub.statusCode, 201, pub.body);
  assert.equal(await q('category=lecture'), 1);
  const notOwn = await app.inject({
    method: 'POST',
    url: '/api/admin/demos/',
    headers: bearer(admin.access),
    payload: { ...payload, alignment_id: demo.id },
  });
  expectError(notOwn, 400, 'validation_error');
  const del = await app.inject({
    method: 'DELETE',
    url: `/api/admin/demos/${pub.json().id}/`,
    headers: bearer(admin.access),
  });
  assert.equal(del.statusCode, 204);
  assert.equal(await q('category=lecture'), 0);
});

test('languages and public statistics', async (t) => {
  const { app } = await createJobsTestApp(t, { concurrency: 0 });
  const langs = (await app.inject({ url: '/api/languages/' })).json();
  assert.ok(langs.count > 100, `${langs.count} languages`);
  const ara = langs.results.find((l: { code: string }) => l.code === 'ara');
  assert.equal(ara.rtl, true);
  assert.ok(ara.routes.includes('arabic-rules'));
  assert.ok(ara.engines.includes('hmm'));
  assert.equal(langs.results.find((l: { code: string }) => l.code === 'eng').native_model, true);
  assert.ok(langs.results.every((l: { code: string }) => /^[a-z]{3}$/.test(l.code)));

  const openapi = (await app.inject({ url: '/docs/json' })).json() as { paths: Record<string, unknown> };
  for (const path of [
    '/api/alignments/',
    '/api/alignments/{id}/events/',
    '/api/alignments/{id}/export/{format}/',
    '/api/alignments/{id}/video/file/',
    '/api/share/{token}/',
    '/api/projects/{id}/alignments/',
    '/api/demos/',
    '/api/admin/demos/',
    '/api/languages/',
    '/api/stats/public/',
  ])
    assert.ok(path in openapi.paths, `${path} is documented at /docs`);

  const empty = (await app.inject({ url: '/api/stats/public/' })).json();
  assert.deepEqual(empty, {
    languages_supported: langs.count,
    alignments_completed: 0,
    hours_aligned: 0,
    words_aligned: 0,
  });
  const u = await approvedUser(app);
  const at = new Date().toISOString();
  for (const [i, status, duration] of [
    [1, 'completed', 1800],
    [2, 'completed', 5400],
    [3, 'failed', 999],
  ] as const) {
    await app.deps.db
      .insertInto('alignments')
      .values({
        id: `a${i}`,
        user_id: u.id,
        project_id: null,
        title: null,
        language: 'eng',
        detected_language: null,
        status,
        duration,
        confidence: 0.9,
        wer: status === 'completed' ? 0.2 * i : null,
        cer: null,
        words: 100,
        coverage: 1,
        processing_time: 10,
        file_name: 'x.wav',
        file_size: 1,
        created_at: at,
        updated_at: at,
        completed_at: at,
      })
      .execute();
  }
  const stats = (await app.inject({ url: '/api/stats/public/' })).json();
  assert.equal(stats.alignments_completed, 2);
  assert.equal(stats.hours_aligned, 2);
  assert.equal(stats.words_aligned, 200);
  const mine = (await app.inject({ url: '/api/auth/stats/', headers: bearer(u.access) })).json();
  assert.equal(mine.total_alignments, 3);
  assert.equal(mine.completed_alignments, 2);
  assert.ok(Math.abs(mine.average_accuracy - 0.9) < 1e-9, 'coverage x confidence over completed ones');
  assert.equal(mine.total_duration_seconds, 7200);
});
