import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LoginResponse } from '@tazamun/contracts/auth';
import {
  approvedUser,
  bearer,
  createTestApp,
  expectError,
  login,
  registerUser,
} from '@tazamun/server/testing/test-app';

test('login returns tokens and the user; email case does not matter', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app, { email: 'nadia@example.org' });
  const res = await login(app, 'NADIA@example.org', u.password);
  assert.equal(res.statusCode, 200, res.body);
  const body = LoginResponse.parse(res.json());
  assert.equal(body.user.email, 'nadia@example.org');
  assert.equal(body.user.is_approved, true);
  const profile = await app.inject({ url: '/api/auth/profile/', headers: bearer(body.tokens.access) });
  assert.equal(profile.statusCode, 200);
});

test('a wrong password answers 401 with attempts_remaining and max_attempts', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const first = expectError(await login(app, u.email, 'wrong-password'), 401, 'invalid_credentials');
  assert.equal(first.attempts_remaining, 4);
  assert.equal(first.max_attempts, 5);
  assert.equal(first.detail, 'Incorrect email or password.');
  const second = expectError(await login(app, u.email, 'wrong-password'), 401, 'invalid_credentials');
  assert.equal(second.attempts_remaining, 3);
});

test('an unknown email gets the same 401 shape as a wrong password', async (t) => {
  const { app } = await createTestApp(t);
  const body = expectError(
    await login(app, 'ghost@example.org', 'whatever-pass'),
    401,
    'invalid_credentials',
  );
  assert.equal(body.attempts_remaining, 4);
  assert.equal(body.max_attempts, 5);
});

test('the fifth failure locks the account for 15 minutes; the lock expires', async (t) => {
  const { app, clock } = await createTestApp(t);
  const u = await approvedUser(app);
  for (let i = 0; i < 4; i += 1)
    expectError(await login(app, u.email, 'nope-nope'), 401, 'invalid_credentials');
  const fifth = expectError(await login(app, u.email, 'nope-nope'), 429, 'too_many_attempts');
  assert.equal(fifth.lockout_minutes, 15);
  assert.equal(fifth.max_attempts, 5);
  assert.match(String(fifth.detail), /15 minutes/);

  // Even the right password is refused while locked.
  const locked = expectError(await login(app, u.email, u.password), 429, 'account_locked');
  assert.equal(locked.lockout_minutes, 15);
  clock.advance(10 * 60_000);
  const later = expectError(await login(app, u.email, u.password, {}), 429, 'account_locked');
  assert.equal(later.lockout_minutes, 5);

  clock.advance(5 * 60_000 + 1000);
  assert.equal((await login(app, u.email, u.password)).statusCode, 200);
  // The counter started over: a new failure has 4 attempts left.
  assert.equal(
    expectError(await login(app, u.email, 'nope-nope'), 401, 'invalid_credentials').attempts_remaining,
    4,
  );
});

test('failures older than the 15-minute window are forgotten', async (t) => {
  const { app, clock } = await createTestApp(t);
  const u = await approvedUser(app);
  for (let i = 0; i < 4; i += 1) await login(app, u.email, 'nope-nope');
  clock.advance(16 * 60_000);
  assert.equal(
    expectError(await login(app, u.email, 'nope-nope'), 401, 'invalid_credentials').attempts_remaining,
    4,
  );
});

test('a success clears the failure count', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  for (let i = 0; i < 3; i += 1) await login(app, u.email, 'nope-nope');
  assert.equal((await login(app, u.email, u.password)).statusCode, 200);
  assert.equal(
    expectError(await login(app, u.email, 'nope-nope'), 401, 'invalid_credentials').attempts_remaining,
    4,
  );
});

test('a waitlisted user can sign in but approval-only routes answer 403 awaiting_approval', async (t) => {
  const { app } = await createTestApp(t);
  const u = await registerUser(app);
  const res = await login(app, u.email, u.password);
  assert.equal(res.statusCode, 200);
  const { tokens, user } = res.json();
  assert.equal(user.is_approved, false);
  const h = bearer(tokens.access);
  assert.equal((await app.inject({ url: '/api/auth/profile/', headers: h })).statusCode, 200);
  for (const [method, url] of [
    ['GET', '/api/auth/quota/'],
    ['POST', '/api/auth/quota/use/'],
    ['GET', '/api/auth/stats/'],
    ['PATCH', '/api/auth/preferences/'],
  ] as const) {
    const r = await app.inject({ method, url, headers: h, ...(method === 'PATCH' ? { payload: {} } : {}) });
    const body = expectError(r, 403, 'awaiting_approval');
    assert.equal(body.detail, 'Your account is awaiting approval.');
  }
});

test('a rejected user cannot sign in (403 account_rejected)', async (t) => {
  const { app } = await createTestApp(t);
  const u = await registerUser(app);
  await app.deps.db.updateTable('users').set({ status: 'rejected' }).where('id', '=', u.id).execute();
  expectError(await login(app, u.email, u.password), 403, 'account_rejected');
});

test('auth routes are rate limited per IP', async (t) => {
  const { app } = await createTestApp(t, { authRateLimitPerMinute: 3 });
  for (let i = 0; i < 3; i += 1) await login(app, 'x@example.org', 'whatever1');
  const res = await login(app, 'x@example.org', 'whatever1');
  expectError(res, 429, 'rate_limited');
  assert.ok(res.headers['retry-after']);
});

test('login body validation: missing fields are required', async (t) => {
  const { app } = await createTestApp(t);
  const body = expectError(
    await app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email: 'a@b.org' } }),
    400,
    'validation_error',
  );
  assert.deepEqual(body.password, ['This field is required.']);
});

test('blank email or password is a field error, not a counted failure', async (t) => {
  const { app } = await createTestApp(t);
  const body = expectError(await login(app, '  ', ''), 400, 'validation_error');
  assert.deepEqual(body.email, ['This field may not be blank.']);
  assert.deepEqual(body.password, ['This field may not be blank.']);
  const rows = await app.deps.db.selectFrom('login_attempts').selectAll().execute();
  assert.equal(rows.length, 0);
});
