import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIELD_ERROR_KEYWORDS, RegisterResponse } from '@tazamun/contracts/auth';
import { createTestApp, expectError, GOOD_PASSWORD } from '@tazamun/server/testing/test-app';

const valid = {
  first_name: 'Amina',
  last_name: "O'Neil-Haddad",
  email: 'Amina.Haddad@Example.org',
  password: GOOD_PASSWORD,
  password_confirm: GOOD_PASSWORD,
};

const post = (app: Awaited<ReturnType<typeof createTestApp>>['app'], payload: unknown, headers = {}) =>
  app.inject({ method: 'POST', url: '/api/auth/register/', payload: payload as object, headers });

test('registration waitlists the new user and returns tokens, user and waitlist flag', async (t) => {
  const { app } = await createTestApp(t);
  const res = await post(app, valid);
  assert.equal(res.statusCode, 201, res.body);
  const body = RegisterResponse.parse(res.json());
  assert.equal(body.waitlist, true);
  assert.equal(body.user.is_approved, false);
  assert.equal(body.user.email, 'Amina.Haddad@Example.org');
  assert.equal(body.user.name, "Amina O'Neil-Haddad");
  assert.equal(body.user.role, 'user');
  assert.deepEqual(body.user.quota.daily_limit, 10);
  assert.ok(body.tokens.access.split('.').length === 3);
  const row = await app.deps.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
  assert.match(row.password_hash, /^\$argon2id\$/);
  assert.equal(row.email_key, 'amina.haddad@example.org');
});

test('AUTO_APPROVE=true approves at once', async (t) => {
  const { app } = await createTestApp(t, { autoApprove: true, defaultDailyQuota: 3 });
  const body = (await post(app, valid)).json();
  assert.equal(body.waitlist, false);
  assert.equal(body.user.is_approved, true);
  assert.equal(body.user.quota.daily_limit, 3);
});

test('emails are unique without regard to case', async (t) => {
  const { app } = await createTestApp(t);
  assert.equal((await post(app, valid)).statusCode, 201);
  const body = expectError(
    await post(app, { ...valid, email: 'AMINA.haddad@example.ORG' }),
    400,
    'validation_error',
  );
  assert.deepEqual(body.email, ['user with this email already exists.']);
});

test('two simultaneous registrations of one address create one account', async (t) => {
  const { app } = await createTestApp(t);
  const results = await Promise.all([
    post(app, valid),
    post(app, { ...valid, email: valid.email.toLowerCase() }),
  ]);
  assert.deepEqual(results.map((r) => r.statusCode).sort(), [201, 400]);
  const n = await app.deps.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(Number(n.n), 1);
});

const cases: [string, Record<string, unknown>, string, RegExp][] = [
  ['missing first name', { first_name: undefined }, 'first_name', /required/],
  ['blank last name', { last_name: '   ' }, 'last_name', /blank/],
  ['digits in a name', { first_name: 'R2D2' }, 'first_name', /invalid/],
  ['symbols in a name', { last_name: 'Haddad<script>' }, 'last_name', /invalid/],
  ['missing email', { email: undefined }, 'email', /required/],
  ['malformed email', { email: 'amina@localhost' }, 'email', /invalid/],
  ['blank email', { email: '' }, 'email', /blank/],
  ['short password', { password: 'Xq9!vb', password_confirm: 'Xq9!vb' }, 'password', /too short/],
  ['common password', { password: 'password123', password_confirm: 'password123' }, 'password', /too common/],
  ['numeric password', { password: '73948261057', password_confirm: '73948261057' }, 'password', /numeric/],
  [
    'password like the name',
    { password: 'AminaHaddad', password_confirm: 'AminaHaddad' },
    'password',
    /similar/,
  ],
  [
    'password like the email',
    { email: 'zoubir_kateb@example.org', password: 'Zoubir_Kateb1', password_confirm: 'Zoubir_Kateb1' },
    'password',
    /too similar to the email address/,
  ],
  ['mismatched confirmation', { password_confirm: 'Lantern-Orbit-1988' }, 'password_confirm', /match/],
  ['missing password', { password: undefined }, 'password', /required/],
  ['wrong type', { email: 42 }, 'email', /invalid/],
];

for (const [name, patch, field, pattern] of cases) {
  test(`register rejects ${name} on field ${field}`, async (t) => {
    const { app } = await createTestApp(t);
    const body = expectError(await post(app, { ...valid, ...patch }), 400, 'validation_error');
    const messages = body[field] as string[];
    assert.ok(Array.isArray(messages), `${field} missing in ${JSON.stringify(body)}`);
    assert.ok(
      messages.some((m) => pattern.test(m)),
      JSON.stringify(messages),
    );
    assert.ok(
      messages.every((m) => FIELD_ERROR_KEYWORDS.some((k) => m.includes(k)) || /match|characters/.test(m)),
      `a message the web cannot classify: ${JSON.stringify(messages)}`,
    );
  });
}

test('letters of any script, apostrophes and hyphens are valid names', async (t) => {
  const { app } = await createTestApp(t);
  const res = await post(app, { ...valid, first_name: 'أمينة', last_name: 'Lefèvre-D’Arc' });
  assert.equal(res.statusCode, 201, res.body);
});

test('all field errors come together, and detail follows the requested language', async (t) => {
  const { app } = await createTestApp(t);
  const body = expectError(
    await post(app, {}, { 'accept-language': 'fr-FR,fr;q=0.9' }),
    400,
    'validation_error',
  );
  assert.equal(body.detail, 'Certains champs sont invalides.');
  for (const f of ['first_name', 'last_name', 'email', 'password', 'password_confirm']) {
    assert.deepEqual(body[f], ['This field is required.']);
  }
  const ar = expectError(
    await app.inject({ method: 'POST', url: '/api/auth/register/?lang=ar', payload: {} }),
    400,
    'validation_error',
  );
  assert.equal(ar.detail, 'بعض الحقول غير صالحة.');
});

test('a non-JSON or empty body is a 400 with the error shape', async (t) => {
  const { app } = await createTestApp(t);
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register/',
    headers: { 'content-type': 'application/json' },
    payload: '{"first_name":',
  });
  expectError(res, 400, 'bad_request');
});
