import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { approvedUser, bearer, createTestApp, expectError, login } from '@tazamun/server/testing/test-app';

const refresh = (app: Awaited<ReturnType<typeof createTestApp>>['app'], token: string) =>
  app.inject({ method: 'POST', url: '/api/auth/token/refresh/', payload: { refresh: token } });

test('refresh rotates: new access and refresh, the old refresh is spent', async (t) => {
  const { app, clock } = await createTestApp(t);
  const u = await approvedUser(app);
  clock.advance(1000);
  const res = await refresh(app, u.refresh);
  assert.equal(res.statusCode, 200, res.body);
  const next = res.json();
  assert.notEqual(next.refresh, u.refresh);
  assert.notEqual(next.access, u.access);
  assert.equal(
    (await app.inject({ url: '/api/auth/profile/', headers: bearer(next.access) })).statusCode,
    200,
  );
  const again = await refresh(app, next.refresh);
  assert.equal(again.statusCode, 200);
  const stored = await app.deps.db.selectFrom('sessions').select('refresh_hash').execute();
  assert.equal(stored.length, 1);
  assert.ok(
    !stored.some((s) => s.refresh_hash.includes(again.json().refresh)),
    'refresh tokens are stored hashed',
  );
});

test('replaying a rotated refresh token revokes the whole session', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const next = (await refresh(app, u.refresh)).json();
  expectError(await refresh(app, u.refresh), 401, 'token_reused');
  // The thief's replay also killed the legitimate holder's tokens.
  expectError(await refresh(app, next.refresh), 401, 'token_invalid');
  expectError(
    await app.inject({ url: '/api/auth/profile/', headers: bearer(next.access) }),
    401,
    'token_invalid',
  );
});

test('an unknown refresh token is token_invalid; a missing one is required', async (t) => {
  const { app } = await createTestApp(t);
  expectError(await refresh(app, 'not-a-token'), 401, 'token_invalid');
  const body = expectError(
    await app.inject({ method: 'POST', url: '/api/auth/token/refresh/', payload: {} }),
    400,
    'validation_error',
  );
  assert.deepEqual(body.refresh, ['This field is required.']);
});

test('logout revokes the session: its access token and refresh token stop working', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const res = await app.inject({ method: 'POST', url: '/api/auth/logout/', payload: { refresh: u.refresh } });
  assert.equal(res.statusCode, 200);
  expectError(
    await app.inject({ url: '/api/auth/profile/', headers: bearer(u.access) }),
    401,
    'token_invalid',
  );
  expectError(await refresh(app, u.refresh), 401, 'token_invalid');
  // A second logout is harmless (the web ignores failures anyway).
  assert.equal(
    (await app.inject({ method: 'POST', url: '/api/auth/logout/', payload: { refresh: u.refresh } }))
      .statusCode,
    200,
  );
});

test('logout with only the access token revokes its session', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const res = await app.inject({ method: 'POST', url: '/api/auth/logout/', headers: bearer(u.access) });
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().detail, 'Logged out.');
  expectError(await refresh(app, u.refresh), 401, 'token_invalid');
});

test('an expired access token is 401 token_invalid; refresh still works', async (t) => {
  const { app, clock } = await createTestApp(t);
  const u = await approvedUser(app);
  clock.advance(15 * 60_000 + 1000);
  expectError(
    await app.inject({ url: '/api/auth/profile/', headers: bearer(u.access) }),
    401,
    'token_invalid',
  );
  const next = (await refresh(app, u.refresh)).json();
  assert.equal(
    (await app.inject({ url: '/api/auth/profile/', headers: bearer(next.access) })).statusCode,
    200,
  );
});

test('forged, unsigned and malformed tokens are refused', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const [header, payload] = u.access.split('.');
  const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
  const forged = await new SignJWT({ sid: 'x' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(u.id)
    .setAudience('tazamun')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
  for (const token of [none, forged, `${header}.${payload}.AAAA`, 'garbage']) {
    expectError(
      await app.inject({ url: '/api/auth/profile/', headers: bearer(token) }),
      401,
      'token_invalid',
    );
  }
  expectError(
    await app.inject({ url: '/api/auth/profile/', headers: { authorization: 'Basic abc' } }),
    401,
    'token_invalid',
  );
  expectError(await app.inject({ url: '/api/auth/profile/' }), 401, 'not_authenticated');
});

test('refresh sessions expire after REFRESH_TOKEN_TTL, or the longer remember-me TTL', async (t) => {
  const { app, clock } = await createTestApp(t);
  const u = await approvedUser(app);
  const remembered = (await login(app, u.email, u.password, { remember_me: true })).json().tokens;
  clock.advance(15 * 86_400_000);
  expectError(await refresh(app, u.refresh), 401, 'token_invalid');
  assert.equal((await refresh(app, remembered.refresh)).statusCode, 200);
});
