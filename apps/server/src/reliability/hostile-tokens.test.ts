// Issue 27, items 6, 7, 9 and 10: what a personal API token (tzp_…) must not do. An admin's token worked
// on every admin route; tokens outlived a password change and a reset; a token's data export listed the
// sessions (ids, addresses, browsers) it may not list otherwise; a rejected account's token still got
// its export. Real app, real database (SQLite, or PostgreSQL with TAZAMUN_TEST_DB=postgres).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import {
  GOOD_PASSWORD,
  approvedUser,
  bearer,
  createTestApp,
  expectError,
  makeAdmin,
  registerUser,
} from '@tazamun/server/testing/test-app';
import { readZip } from '@tazamun/server/testing/zip-reader';

async function token(app: FastifyInstance, access: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/tokens/',
    headers: bearer(access),
    payload: { name: 'script' },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().token as string;
}

const profile = (app: FastifyInstance, t: string) =>
  app.inject({ url: '/api/auth/profile/', headers: bearer(t) });

test('item 6: an admin’s API token is refused on every admin route; the admin’s session is not', async (t) => {
  const { app } = await createTestApp(t);
  const admin = await approvedUser(app);
  await makeAdmin(app, admin.id);
  const tzp = await token(app, admin.access);
  const pending = await registerUser(app);
  const job = '00000000-0000-4000-8000-000000000000';
  const routes: [string, string, Record<string, unknown>?][] = [
    ['GET', '/api/admin/users/'],
    ['GET', '/api/admin/users/?status=pending'],
    ['POST', `/api/admin/users/${pending.id}/approve/`],
    ['POST', `/api/admin/users/${pending.id}/reject/`],
    ['PATCH', `/api/admin/users/${pending.id}/quota/`, { daily_limit: 1000 }],
    ['GET', '/api/admin/feedback/'],
    ['GET', '/api/admin/jobs/'],
    ['POST', `/api/admin/jobs/${job}/retry/`],
    ['POST', `/api/admin/jobs/${job}/cancel/`],
    ['GET', '/api/admin/workers/'],
    ['POST', '/api/admin/demos/', { alignment_id: job, title: 'x', category: 'x', licence: 'x' }],
    ['DELETE', `/api/admin/demos/${job}/`],
    ['POST', '/api/auth/quota/reset/', { user_id: pending.id }],
  ];
  for (const [method, url, payload] of routes) {
    const res = await app.inject({ method: method as 'GET', url, headers: bearer(tzp), payload });
    const body = expectError(res, 403, 'session_required');
    assert.match(String(body.detail), /nor act as an administrator/, `${method} ${url}`);
  }
  // nothing was done: the pending user is still pending with the default quota
  const row = await app.deps.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', pending.id)
    .executeTakeFirstOrThrow();
  assert.equal(row.status, 'pending');
  assert.equal(row.daily_limit, 10);
  // the same admin, signed in, still administers; the token still works where a user's token may
  const list = await app.inject({ url: '/api/admin/users/?status=pending', headers: bearer(admin.access) });
  assert.equal(list.statusCode, 200, list.body);
  const ok = await app.inject({
    method: 'POST',
    url: `/api/admin/users/${pending.id}/approve/`,
    headers: bearer(admin.access),
  });
  assert.equal(ok.statusCode, 200, ok.body);
  assert.equal((await profile(app, tzp)).statusCode, 200);
});

test('item 7: tokens die with a password change and with a password reset', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const first = await token(app, u.access);
  const second = await token(app, u.access);
  assert.equal((await profile(app, first)).statusCode, 200);
  const changed = await app.inject({
    method: 'POST',
    url: '/api/auth/change-password/',
    headers: bearer(u.access),
    payload: {
      current_password: GOOD_PASSWORD,
      new_password: 'Quiet-Harbour-2031',
      new_password_confirm: 'Quiet-Harbour-2031',
    },
  });
  assert.equal(changed.statusCode, 200, changed.body);
  expectError(await profile(app, first), 401, 'token_invalid');
  expectError(await profile(app, second), 401, 'token_invalid');
  // the session that changed the password is kept, and may make a new token
  const third = await token(app, u.access);
  assert.equal((await profile(app, third)).statusCode, 200);

  // a reset by e-mail link ends them too
  const asked = await app.inject({
    method: 'POST',
    url: '/api/auth/password-reset/',
    payload: { email: u.email },
  });
  assert.equal(asked.statusCode, 200);
  const mail = await app.deps.db
    .selectFrom('email_outbox')
    .select('body')
    .where('kind', '=', 'password_reset')
    .executeTakeFirstOrThrow();
  const resetToken = /Reset token: (\S+)/.exec(mail.body)![1]!;
  const reset = await app.inject({
    method: 'POST',
    url: '/api/auth/password-reset/confirm/',
    payload: {
      token: resetToken,
      new_password: 'Amber-Lattice-4417',
      new_password_confirm: 'Amber-Lattice-4417',
    },
  });
  assert.equal(reset.statusCode, 200, reset.body);
  expectError(await profile(app, third), 401, 'token_invalid');
  assert.equal((await app.deps.db.selectFrom('api_tokens').select('id').execute()).length, 0);
});

test('item 9: a token’s data export leaves out the sessions and tokens it cannot list', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const tzp = await token(app, u.access);
  const viaToken = await app.inject({ url: '/api/auth/export/', headers: bearer(tzp) });
  assert.equal(viaToken.statusCode, 200, viaToken.body);
  const files = readZip(viaToken.rawPayload);
  assert.ok(files.has('profile.json') && files.has('alignments.json'), [...files.keys()].join(', '));
  assert.ok(!files.has('sessions.json'), 'no sessions.json');
  assert.ok(!files.has('api-tokens.json'), 'no api-tokens.json');
  assert.ok(!viaToken.rawPayload.includes(Buffer.from('user_agent')), 'no browser string anywhere');
  expectError(
    await app.inject({ url: '/api/auth/sessions/', headers: bearer(tzp) }),
    403,
    'session_required',
  );
  // signed in, the export is whole
  const viaSession = readZip(
    (await app.inject({ url: '/api/auth/export/', headers: bearer(u.access) })).rawPayload,
  );
  assert.ok(viaSession.has('sessions.json') && viaSession.has('api-tokens.json'));
});

test('item 10: a rejected account’s token is refused, export included', async (t) => {
  const { app } = await createTestApp(t);
  const admin = await approvedUser(app);
  await makeAdmin(app, admin.id);
  const u = await approvedUser(app);
  const tzp = await token(app, u.access);
  assert.equal((await app.inject({ url: '/api/auth/export/', headers: bearer(tzp) })).statusCode, 200);
  const rejected = await app.inject({
    method: 'POST',
    url: `/api/admin/users/${u.id}/reject/`,
    headers: bearer(admin.access),
  });
  assert.equal(rejected.statusCode, 200, rejected.body);
  expectError(await app.inject({ url: '/api/auth/export/', headers: bearer(tzp) }), 401, 'token_invalid');
  expectError(await profile(app, tzp), 401, 'token_invalid');
  assert.equal((await app.deps.db.selectFrom('api_tokens').select('id').execute()).length, 0);

  // a token whose owner is rejected by other means (a direct update) is refused as well
  const v = await approvedUser(app);
  const other = await token(app, v.access);
  await app.deps.db.updateTable('users').set({ status: 'rejected' }).where('id', '=', v.id).execute();
  expectError(await app.inject({ url: '/api/auth/export/', headers: bearer(other) }), 401, 'token_invalid');
});
