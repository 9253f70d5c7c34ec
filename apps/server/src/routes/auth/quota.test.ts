import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Stats } from '@tazamun/contracts/auth';
import {
  approvedUser,
  bearer,
  createTestApp,
  expectError,
  makeAdmin,
} from '@tazamun/server/testing/test-app';

test('quota: read, consume until exhausted, 429 with the limit', async (t) => {
  const { app } = await createTestApp(t, { defaultDailyQuota: 2 });
  const u = await approvedUser(app);
  const h = bearer(u.access);
  const q = (await app.inject({ url: '/api/auth/quota/', headers: h })).json().quota;
  assert.deepEqual(q, { daily_limit: 2, used_today: 0, remaining: 2, resets_at: '2026-03-02T00:00:00.000Z' });
  const use = () => app.inject({ method: 'POST', url: '/api/auth/quota/use/', headers: h });
  assert.equal((await use()).json().quota.used_today, 1);
  assert.equal((await use()).json().quota.remaining, 0);
  const body = expectError(await use(), 429, 'quota_exhausted');
  assert.match(String(body.detail), /\(2 alignments per day\)/);
  // nothing to upgrade: the message says when it renews and whom to ask for more
  assert.doesNotMatch(String(body.detail), /upgrade/i);
  assert.match(String(body.detail), /midnight UTC.*ask this server’s administrators/);
  const fr = expectError(
    await app.inject({
      method: 'POST',
      url: '/api/auth/quota/use/',
      headers: { ...h, 'accept-language': 'fr' },
    }),
    429,
    'quota_exhausted',
  );
  assert.match(String(fr.detail), /^Quota quotidien épuisé/);
  assert.doesNotMatch(String(fr.detail), /mettez à niveau/);
});

test('concurrent quota use at the limit never exceeds it', async (t) => {
  const { app } = await createTestApp(t, { defaultDailyQuota: 1 });
  const u = await approvedUser(app);
  const results = await Promise.all(
    Array.from({ length: 20 }, () =>
      app.inject({ method: 'POST', url: '/api/auth/quota/use/', headers: bearer(u.access) }),
    ),
  );
  assert.equal(results.filter((r) => r.statusCode === 200).length, 1);
  assert.equal(results.filter((r) => r.statusCode === 429).length, 19);
  const row = await app.deps.db
    .selectFrom('users')
    .select('used_today')
    .where('id', '=', u.id)
    .executeTakeFirstOrThrow();
  assert.equal(row.used_today, 1);
});

test('the quota starts over at midnight UTC', async (t) => {
  const { app, clock } = await createTestApp(t, { defaultDailyQuota: 1 });
  const u = await approvedUser(app);
  const h = bearer(u.access);
  assert.equal(
    (await app.inject({ method: 'POST', url: '/api/auth/quota/use/', headers: h })).statusCode,
    200,
  );
  expectError(
    await app.inject({ method: 'POST', url: '/api/auth/quota/use/', headers: h }),
    429,
    'quota_exhausted',
  );
  clock.set('2026-03-01T23:59:59.000Z');
  // The morning's access token has expired by now: refresh, as the web client does.
  const { access } = (
    await app.inject({ method: 'POST', url: '/api/auth/token/refresh/', payload: { refresh: u.refresh } })
  ).json();
  expectError(
    await app.inject({ method: 'POST', url: '/api/auth/quota/use/', headers: bearer(access) }),
    429,
    'quota_exhausted',
  );
  clock.set('2026-03-02T00:00:01.000Z');
  const q = (await app.inject({ url: '/api/auth/quota/', headers: bearer(access) })).json().quota;
  assert.equal(q.used_today, 0);
  const used = await app.inject({ method: 'POST', url: '/api/auth/quota/use/', headers: bearer(access) });
  assert.equal(used.json().quota.used_today, 1);
});

test('a daily limit of 0 allows nothing', async (t) => {
  const { app } = await createTestApp(t, { defaultDailyQuota: 0 });
  const u = await approvedUser(app);
  expectError(
    await app.inject({ method: 'POST', url: '/api/auth/quota/use/', headers: bearer(u.access) }),
    429,
    'quota_exhausted',
  );
});

test('quota reset is for admins: a user cannot reset their own usage', async (t) => {
  const { app } = await createTestApp(t, { defaultDailyQuota: 1 });
  const u = await approvedUser(app);
  const admin = await approvedUser(app);
  await makeAdmin(app, admin.id);
  await app.inject({ method: 'POST', url: '/api/auth/quota/use/', headers: bearer(u.access) });
  expectError(
    await app.inject({ method: 'POST', url: '/api/auth/quota/reset/', headers: bearer(u.access) }),
    403,
    'admin_required',
  );
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/quota/reset/',
    headers: bearer(admin.access),
    payload: { user_id: u.id },
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().quota.used_today, 0);
  assert.equal(
    (await app.inject({ url: '/api/auth/quota/', headers: bearer(u.access) })).json().quota.remaining,
    1,
  );
  expectError(
    await app.inject({
      method: 'POST',
      url: '/api/auth/quota/reset/',
      headers: bearer(admin.access),
      payload: { user_id: 'nope' },
    }),
    404,
    'not_found',
  );
});

test('stats are zero without alignments and computed from the alignments table', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const h = bearer(u.access);
  assert.deepEqual(Stats.parse((await app.inject({ url: '/api/auth/stats/', headers: h })).json()), {
    total_alignments: 0,
    completed_alignments: 0,
    average_accuracy: null,
    good_share: null,
    mean_confidence: null,
    total_duration_seconds: 0,
    languages_used: [],
  });
  const base = {
    user_id: u.id,
    project_id: null,
    title: null,
    detected_language: null,
    confidence: 0.9,
    cer: 0.05,
    words: 10,
    coverage: 1,
    processing_time: 2,
    file_name: 'a.wav',
    file_size: 100,
    created_at: '2026-03-01T09:00:00.000Z',
    updated_at: '2026-03-01T09:00:00.000Z',
    completed_at: null,
  };
  await app.deps.db
    .insertInto('alignments')
    .values([
      { ...base, id: 'a1', language: 'ara', status: 'completed', duration: 30, wer: 0.1 },
      // half the words not found, the rest at 0.8: 0.4
      {
        ...base,
        id: 'a2',
        language: 'fra',
        status: 'completed',
        duration: 12.5,
        wer: 0.3,
        coverage: 0.5,
        confidence: 0.8,
      },
      { ...base, id: 'a3', language: 'ara', status: 'failed', duration: 99, wer: null },
    ])
    .execute();
  const jdb = app.deps.db;
  await jdb.updateTable('alignments').set({ verdict: 'good' }).where('id', '=', 'a1').execute();
  await jdb.updateTable('alignments').set({ verdict: 'partial' }).where('id', '=', 'a2').execute();
  const s = Stats.parse((await app.inject({ url: '/api/auth/stats/', headers: h })).json());
  assert.equal(s.total_alignments, 3);
  // one good verdict of two completed; mean confidence (0.9 + 0.8) / 2; the failed one is left out
  assert.equal(s.good_share, 0.5);
  assert.ok(Math.abs((s.mean_confidence ?? 0) - 0.85) < 1e-9, String(s.mean_confidence));
  assert.equal(s.completed_alignments, 2);
  // coverage x confidence over the completed ones: (1 x 0.9 + 0.5 x 0.8) / 2; the failed one is left out
  assert.ok(Math.abs((s.average_accuracy ?? 0) - 0.65) < 1e-9, String(s.average_accuracy));
  assert.equal(s.total_duration_seconds, 42.5);
  assert.deepEqual(s.languages_used, ['ara', 'fra']);
});
