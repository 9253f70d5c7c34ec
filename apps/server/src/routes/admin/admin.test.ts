import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdminUserList } from '@tazamun/contracts/auth';
import {
  approvedUser,
  bearer,
  createTestApp,
  expectError,
  login,
  makeAdmin,
  registerUser,
} from '@tazamun/server/testing/test-app';

async function setup(t: Parameters<typeof createTestApp>[0]) {
  const ctx = await createTestApp(t);
  const admin = await approvedUser(ctx.app, { email: 'admin@example.org' });
  await makeAdmin(ctx.app, admin.id);
  return { ...ctx, admin, h: bearer(admin.access) };
}

test('admin routes refuse anonymous callers and non-admins', async (t) => {
  const { app } = await setup(t);
  const u = await approvedUser(app);
  expectError(await app.inject({ url: '/api/admin/users/' }), 401, 'not_authenticated');
  expectError(
    await app.inject({ url: '/api/admin/users/', headers: bearer(u.access) }),
    403,
    'admin_required',
  );
  expectError(
    await app.inject({ method: 'POST', url: `/api/admin/users/${u.id}/approve/`, headers: bearer(u.access) }),
    403,
    'admin_required',
  );
  expectError(
    await app.inject({ url: '/api/admin/feedback/', headers: bearer(u.access) }),
    403,
    'admin_required',
  );
});

test('the waiting list, approval with a mail, rejection ending sessions', async (t) => {
  const { app, h } = await setup(t);
  const a = await registerUser(app, { email: 'pending-a@example.org' });
  const b = await registerUser(app, { email: 'pending-b@example.org' });
  const pending = AdminUserList.parse(
    (await app.inject({ url: '/api/admin/users/?status=pending', headers: h })).json(),
  );
  assert.deepEqual(
    pending.users.map((x) => x.email),
    ['pending-a@example.org', 'pending-b@example.org'],
  );
  assert.equal((await app.inject({ url: '/api/admin/users/', headers: h })).json().users.length, 3);
  expectError(
    await app.inject({ url: '/api/admin/users/?status=nope', headers: h }),
    400,
    'validation_error',
  );

  const approved = await app.inject({ method: 'POST', url: `/api/admin/users/${a.id}/approve/`, headers: h });
  assert.equal(approved.statusCode, 200, approved.body);
  assert.equal(approved.json().user.is_approved, true);
  assert.equal(approved.json().user.status, 'approved');
  // The waiting user's existing token now reaches approval-only routes.
  assert.equal((await app.inject({ url: '/api/auth/quota/', headers: bearer(a.access) })).statusCode, 200);
  const mail = await app.deps.db
    .selectFrom('email_outbox')
    .selectAll()
    .where('to_address', '=', a.email)
    .execute();
  assert.deepEqual(
    mail.map((m) => m.kind),
    ['approved'],
  );

  const rejected = await app.inject({ method: 'POST', url: `/api/admin/users/${b.id}/reject/`, headers: h });
  assert.equal(rejected.json().user.status, 'rejected');
  expectError(
    await app.inject({ url: '/api/auth/profile/', headers: bearer(b.access) }),
    401,
    'token_invalid',
  );
  expectError(await login(app, b.email, b.password), 403, 'account_rejected');
  assert.equal(
    (await app.inject({ url: '/api/admin/users/?status=pending', headers: h })).json().users.length,
    0,
  );
  expectError(
    await app.inject({ method: 'POST', url: '/api/admin/users/nope/approve/', headers: h }),
    404,
    'not_found',
  );
});

test('admins set daily limits', async (t) => {
  const { app, h } = await setup(t);
  const u = await approvedUser(app);
  const res = await app.inject({
    method: 'PATCH',
    url: `/api/admin/users/${u.id}/quota/`,
    headers: h,
    payload: { daily_limit: 25 },
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().user.quota.daily_limit, 25);
  assert.equal(
    (await app.inject({ url: '/api/auth/quota/', headers: bearer(u.access) })).json().quota.remaining,
    25,
  );
  const bad = expectError(
    await app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${u.id}/quota/`,
      headers: h,
      payload: { daily_limit: -1 },
    }),
    400,
    'validation_error',
  );
  assert.ok(bad.daily_limit);
});

test('feedback: users send it (validated), admins read it', async (t) => {
  const { app, h } = await setup(t);
  const u = await registerUser(app); // waiting users may ask for help too
  const send = (payload: object) =>
    app.inject({ method: 'POST', url: '/api/feedback/', headers: bearer(u.access), payload });
  const ok = await send({ type: 'help', message: ' How long is the wait? ' });
  assert.equal(ok.statusCode, 201, ok.body);
  assert.equal(ok.json().feedback.message, 'How long is the wait?');
  assert.equal(ok.json().feedback.subject, null);
  assert.match(
    (
      expectError(await send({ type: 'bug', message: '   ' }), 400, 'validation_error').message as string[]
    )[0]!,
    /blank/,
  );
  assert.match(
    (expectError(await send({ type: 'praise', message: 'x' }), 400, 'validation_error').type as string[])[0]!,
    /invalid/,
  );
  assert.match(
    (expectError(await send({ type: 'bug' }), 400, 'validation_error').message as string[])[0]!,
    /required/,
  );
  expectError(
    await app.inject({ method: 'POST', url: '/api/feedback/', payload: { type: 'bug', message: 'x' } }),
    401,
    'not_authenticated',
  );
  const inbox = (await app.inject({ url: '/api/admin/feedback/', headers: h })).json().feedback;
  assert.equal(inbox.length, 1);
  assert.equal(inbox[0].user_email, u.email);
  assert.equal(inbox[0].type, 'help');
});
