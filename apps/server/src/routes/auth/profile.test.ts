import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PREFERENCES, User } from '@tazamun/contracts/auth';
import { approvedUser, bearer, createTestApp, expectError, login } from '@tazamun/server/testing/test-app';

test('GET and PATCH profile', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const h = bearer(u.access);
  const before = User.parse((await app.inject({ url: '/api/auth/profile/', headers: h })).json());
  assert.deepEqual(before.preferences, DEFAULT_PREFERENCES);
  const res = await app.inject({
    method: 'PATCH',
    url: '/api/auth/profile/',
    headers: h,
    payload: { first_name: ' Nour ', preferred_language: 'fr', preferences: { theme: 'light' } },
  });
  assert.equal(res.statusCode, 200, res.body);
  const after = User.parse(res.json());
  assert.equal(after.first_name, 'Nour');
  assert.equal(after.name, 'Nour Haddad');
  assert.equal(after.preferred_language, 'fr');
  assert.equal(after.preferences.language, 'fr');
  assert.equal(after.preferences.theme, 'light');
  assert.equal(after.email, u.email);
});

test('PATCH profile validates names and enums', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const h = bearer(u.access);
  const bad = expectError(
    await app.inject({
      method: 'PATCH',
      url: '/api/auth/profile/',
      headers: h,
      payload: { first_name: '', last_name: 'x1' },
    }),
    400,
    'validation_error',
  );
  assert.match((bad.first_name as string[])[0]!, /blank/);
  assert.match((bad.last_name as string[])[0]!, /invalid/);
  const badLang = expectError(
    await app.inject({
      method: 'PATCH',
      url: '/api/auth/profile/',
      headers: h,
      payload: { preferred_language: 'de' },
    }),
    400,
    'validation_error',
  );
  assert.match((badLang.preferred_language as string[])[0]!, /invalid/);
});

test('preferences: GET returns defaults, PATCH merges and validates', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const h = bearer(u.access);
  assert.deepEqual(
    (await app.inject({ url: '/api/auth/preferences/', headers: h })).json(),
    DEFAULT_PREFERENCES,
  );
  const res = await app.inject({
    method: 'PATCH',
    url: '/api/auth/preferences/',
    headers: h,
    payload: { compact_mode: true, confidence_threshold: 'high', default_alignment_language: 'fra' },
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().compact_mode, true);
  assert.equal(res.json().theme, 'dark');
  const again = (await app.inject({ url: '/api/auth/preferences/', headers: h })).json();
  assert.equal(again.default_alignment_language, 'fra');
  const bad = expectError(
    await app.inject({
      method: 'PATCH',
      url: '/api/auth/preferences/',
      headers: h,
      payload: { fps: 'fast', default_alignment_language: 'FR' },
    }),
    400,
    'validation_error',
  );
  assert.ok(bad.fps && bad.default_alignment_language);
});

test('change-password checks the current one, validates the new one, keeps only this session', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const other = (await login(app, u.email, u.password)).json().tokens;
  const h = bearer(u.access);
  const post = (payload: object) =>
    app.inject({ method: 'POST', url: '/api/auth/change-password/', headers: h, payload });

  const wrong = expectError(
    await post({
      current_password: 'not-it-at-all',
      new_password: 'Quiet-River-2031',
      new_password_confirm: 'Quiet-River-2031',
    }),
    400,
    'validation_error',
  );
  assert.match((wrong.current_password as string[])[0]!, /invalid/);
  const weak = expectError(
    await post({ current_password: u.password, new_password: 'short', new_password_confirm: 'short' }),
    400,
    'validation_error',
  );
  assert.match((weak.new_password as string[]).join(' '), /too short/);
  const mismatch = expectError(
    await post({
      current_password: u.password,
      new_password: 'Quiet-River-2031',
      new_password_confirm: 'Quiet-River-2032',
    }),
    400,
    'validation_error',
  );
  assert.ok(mismatch.new_password_confirm);

  const ok = await post({
    current_password: u.password,
    new_password: 'Quiet-River-2031',
    new_password_confirm: 'Quiet-River-2031',
  });
  assert.equal(ok.statusCode, 200, ok.body);
  assert.equal(ok.json().revoked_sessions, 1);
  assert.equal((await app.inject({ url: '/api/auth/profile/', headers: h })).statusCode, 200);
  expectError(
    await app.inject({ url: '/api/auth/profile/', headers: bearer(other.access) }),
    401,
    'token_invalid',
  );
  expectError(await login(app, u.email, u.password), 401, 'invalid_credentials');
  assert.equal((await login(app, u.email, 'Quiet-River-2031')).statusCode, 200);
});

test('sessions: list with current flag, revoke one, revoke others', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
  const second = (
    await app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      headers: { 'user-agent': firefox },
      payload: { email: u.email, password: u.password },
    })
  ).json().tokens;
  await login(app, u.email, u.password);
  const h = bearer(u.access);
  const list = (await app.inject({ url: '/api/auth/sessions/', headers: h })).json().sessions;
  assert.equal(list.length, 3);
  assert.equal(list.filter((s: { current: boolean }) => s.current).length, 1);
  const ff = list.find((s: { user_agent: string | null }) => s.user_agent === firefox);
  assert.equal(ff.device, 'Firefox on Linux');
  assert.equal(ff.ip, '127.0.0.1');

  const del = await app.inject({ method: 'DELETE', url: `/api/auth/sessions/${ff.id}/`, headers: h });
  assert.equal(del.statusCode, 200);
  expectError(
    await app.inject({ url: '/api/auth/profile/', headers: bearer(second.access) }),
    401,
    'token_invalid',
  );
  expectError(
    await app.inject({ method: 'DELETE', url: `/api/auth/sessions/${ff.id}/`, headers: h }),
    404,
    'not_found',
  );

  const others = await app.inject({ method: 'POST', url: '/api/auth/sessions/revoke-others/', headers: h });
  assert.equal(others.json().revoked, 1);
  const left = (await app.inject({ url: '/api/auth/sessions/', headers: h })).json().sessions;
  assert.equal(left.length, 1);
  assert.equal(left[0].current, true);
});

test('one user cannot revoke another user’s session', async (t) => {
  const { app } = await createTestApp(t);
  const a = await approvedUser(app);
  const b = await approvedUser(app);
  const bSessions = (await app.inject({ url: '/api/auth/sessions/', headers: bearer(b.access) })).json()
    .sessions;
  expectError(
    await app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${bSessions[0].id}/`,
      headers: bearer(a.access),
    }),
    404,
    'not_found',
  );
  assert.equal((await app.inject({ url: '/api/auth/profile/', headers: bearer(b.access) })).statusCode, 200);
});

test('preferred_language and preferences.language stay in step whichever is set', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const h = bearer(u.access);
  const viaPrefs = await app.inject({
    method: 'PATCH',
    url: '/api/auth/profile/',
    headers: h,
    payload: { preferences: { language: 'en' } },
  });
  assert.equal(viaPrefs.json().preferred_language, 'en');
  await app.inject({
    method: 'PATCH',
    url: '/api/auth/preferences/',
    headers: h,
    payload: { language: 'fr' },
  });
  const profile = (await app.inject({ url: '/api/auth/profile/', headers: h })).json();
  assert.deepEqual([profile.preferred_language, profile.preferences.language], ['fr', 'fr']);
});
