// Personal API tokens through the real app: created once, used as Bearer, listed without secrets,
// revoked at once, expired on time, and unable to manage tokens themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import {
  approvedUser,
  bearer,
  createTestApp,
  expectError,
  registerUser,
} from '@tazamun/server/testing/test-app';

const create = (app: FastifyInstance, access: string, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/auth/tokens/', headers: bearer(access), payload });
const profile = (app: FastifyInstance, token: string) =>
  app.inject({ url: '/api/auth/profile/', headers: bearer(token) });

test('a token is shown once, stored hashed, works as Bearer and stops at once when revoked', async (t) => {
  const { app, clock } = await createTestApp(t);
  const u = await approvedUser(app);
  const res = await create(app, u.access, { name: 'corpus script' });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(res.headers['cache-control'], 'no-store');
  const created = res.json();
  assert.match(created.token, /^tzp_[A-Za-z0-9_-]{43}$/);
  assert.equal(created.name, 'corpus script');
  assert.equal(created.expires_at, null);
  assert.equal(created.prefix, created.token.slice(0, 10));

  const stored = await app.deps.db.selectFrom('api_tokens').selectAll().execute();
  assert.equal(stored.length, 1);
  assert.notEqual(stored[0]!.token_hash, created.token);
  assert.ok(!JSON.stringify(stored).includes(created.token.slice(4)), 'the secret is not stored');

  clock.advance(5000);
  const me = await profile(app, created.token);
  assert.equal(me.statusCode, 200, me.body);
  assert.equal(me.json().id, u.id);
  // a second request in a row with the same token still works (no one-time use)
  assert.equal((await profile(app, created.token)).statusCode, 200);

  const list = await app.inject({ url: '/api/auth/tokens/', headers: bearer(u.access) });
  assert.equal(list.statusCode, 200);
  assert.deepEqual(list.json().tokens, [
    {
      id: created.id,
      name: 'corpus script',
      prefix: created.prefix,
      created_at: created.created_at,
      expires_at: null,
      last_used_at: new Date(Date.parse(created.created_at) + 5000).toISOString(),
    },
  ]);
  assert.ok(!list.body.includes(created.token), 'the list never shows the secret');

  const del = await app.inject({
    method: 'DELETE',
    url: `/api/auth/tokens/${created.id}/`,
    headers: bearer(u.access),
  });
  assert.equal(del.statusCode, 204);
  expectError(await profile(app, created.token), 401, 'token_invalid');
  expectError(
    await app.inject({ method: 'DELETE', url: `/api/auth/tokens/${created.id}/`, headers: bearer(u.access) }),
    404,
    'not_found',
  );
  // the session that made it is untouched
  assert.equal((await profile(app, u.access)).statusCode, 200);
});

test('an expiring token works until its day and not after', async (t) => {
  const { app, clock } = await createTestApp(t);
  const u = await approvedUser(app);
  const created = (await create(app, u.access, { name: 'week', expires_in_days: 7 })).json();
  assert.equal(created.expires_at, new Date(clock.now().getTime() + 7 * 86_400_000).toISOString());
  clock.advance(7 * 86_400_000 - 1000);
  assert.equal((await profile(app, created.token)).statusCode, 200);
  clock.advance(1000);
  expectError(await profile(app, created.token), 401, 'token_invalid');
});

test('tokens are refused for token management, bad input and other users', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const other = await approvedUser(app);
  const token = (await create(app, u.access, { name: 'ci' })).json();

  expectError(await create(app, token.token, { name: 'child' }), 403, 'session_required');
  expectError(
    await app.inject({ url: '/api/auth/tokens/', headers: bearer(token.token) }),
    403,
    'session_required',
  );
  const bad = expectError(
    await create(app, u.access, { name: ' ', expires_in_days: 0 }),
    400,
    'validation_error',
  );
  assert.ok(Array.isArray(bad.name) && Array.isArray(bad.expires_in_days), JSON.stringify(bad));
  expectError(await create(app, u.access, { name: 'x', expires_in_days: 367 }), 400, 'validation_error');
  // another user can neither see nor revoke it
  const theirs = await app.inject({ url: '/api/auth/tokens/', headers: bearer(other.access) });
  assert.deepEqual(theirs.json().tokens, []);
  expectError(
    await app.inject({
      method: 'DELETE',
      url: `/api/auth/tokens/${token.id}/`,
      headers: bearer(other.access),
    }),
    404,
    'not_found',
  );
  assert.equal((await profile(app, token.token)).statusCode, 200);
  // a made-up token of the right shape is just invalid
  expectError(await profile(app, `tzp_${'A'.repeat(43)}`), 401, 'token_invalid');
  // a user waiting for approval cannot create one
  const pending = await registerUser(app);
  expectError(await create(app, pending.access, { name: 'x' }), 403, 'awaiting_approval');
});

test('a token acts for its user on the product routes, and deleting the user ends it', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const token = (await create(app, u.access, { name: 'projects' })).json().token as string;
  const made = await app.inject({
    method: 'POST',
    url: '/api/projects/',
    headers: bearer(token),
    payload: { name: 'Corpus A' },
  });
  assert.equal(made.statusCode, 201, made.body);
  const list = await app.inject({ url: '/api/projects/', headers: bearer(u.access) });
  assert.deepEqual(
    list.json().results.map((p: { name: string }) => p.name),
    ['Corpus A'],
  );
  await app.deps.db.deleteFrom('users').where('id', '=', u.id).execute();
  expectError(await profile(app, token), 401, 'token_invalid');
});

test('a token cannot take the account over: password, deletion and sessions need a session', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const token = (await create(app, u.access, { name: 'script' })).json().token as string;
  const asToken = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    app.inject({ method, url, headers: bearer(token), ...(payload && { payload }) });

  const refused = [
    await asToken('POST', '/api/auth/change-password/', {
      current_password: u.password,
      new_password: 'An0ther-long-passphrase!',
      new_password_confirm: 'An0ther-long-passphrase!',
    }),
    await asToken('DELETE', '/api/auth/account/', { password: u.password, confirmation: 'DELETE' }),
    await asToken('GET', '/api/auth/sessions/'),
    await asToken('POST', '/api/auth/sessions/revoke-others/'),
  ];
  for (const res of refused) expectError(res, 403, 'session_required');
  // Nothing changed: the session still works, the account and its password are as they were.
  assert.equal((await profile(app, u.access)).statusCode, 200);
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login/',
    payload: { email: u.email, password: u.password },
  });
  assert.equal(login.statusCode, 200, login.body);
  // What a script is for still works with the token.
  assert.equal((await profile(app, token)).statusCode, 200);
});
