// Security properties checked on the real app: per-address limits on sign-in and reset, response
// headers (CSP), CORS limited to the configured origin, argon2id password hashes, hashed refresh tokens.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import type { Config } from '../config.ts';
import {
  approvedUser,
  createTestApp,
  expectError,
  login,
  testConfig,
} from '@tazamun/server/testing/test-app';
import { FixedWindowCounter } from './email-rate-limit.ts';
import { loadConfig } from '../config.ts';

async function appWith(t: TestContext, overrides: Partial<Config>, authEmailRateLimit?: number) {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-security-'));
  const app = await buildApp(testConfig(dir, overrides), {
    clock: new ManualClock(),
    logger: false,
    jobs: { ...loadConfig({}).jobs, concurrency: 0, demoMediaDir: null, seedDemos: false },
    authEmailRateLimit,
  });
  t.after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return app;
}

test('sign-in and password reset are limited per e-mail address, whatever the IP', async (t) => {
  const app = await appWith(t, {}, 3);
  const u = await approvedUser(app);
  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  for (let i = 0; i < 3; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { email: u.email, password: u.password },
      headers: from(`10.0.0.${i}`),
    });
    assert.equal(res.statusCode, 200, res.body);
  }
  // the same address in another case, from yet another IP
  const limited = await login(app, u.email.toUpperCase(), u.password);
  expectError(limited, 429, 'rate_limited');
  assert.ok(Number(limited.headers['retry-after']) > 0);
  // other addresses are not affected
  const other = await approvedUser(app);
  assert.equal((await login(app, other.email, other.password)).statusCode, 200);

  for (let i = 0; i < 3; i++) {
    const r = await app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/',
      payload: { email: 'victim@example.org' },
    });
    assert.ok(r.statusCode < 300, r.body);
  }
  expectError(
    await app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/',
      payload: { email: 'victim@example.org' },
    }),
    429,
    'rate_limited',
  );
  const mails = await app.deps.db
    .selectFrom('email_outbox')
    .selectAll()
    .where('to_address', '=', 'victim@example.org')
    .execute();
  assert.ok(mails.length <= 3);
});

test('the per-address window opens again after a minute', () => {
  let now = 0;
  const c = new FixedWindowCounter(2, 60_000, () => now);
  assert.equal(c.hit('a'), 0);
  assert.equal(c.hit('a'), 0);
  assert.equal(c.hit('a'), 60_000);
  assert.equal(c.hit('b'), 0);
  now = 60_000;
  assert.equal(c.hit('a'), 0);
});

test('security headers: a strict CSP, no sniffing, no framing, no server banner', async (t) => {
  const { app } = await createTestApp(t);
  const res = await app.inject({ url: '/api/health/' });
  const csp = String(res.headers['content-security-policy']);
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /script-src 'self'(;|$)/, 'scripts only from the origin: no inline, no eval');
  assert.doesNotMatch(csp, /unsafe-eval/);
  assert.match(csp, /object-src 'none'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.ok(res.headers['strict-transport-security']);
  assert.equal(res.headers['x-powered-by'], undefined);
});

test('CORS answers only the configured origin', async (t) => {
  const app = await appWith(t, { corsOrigin: ['https://tazamun.example.org'] });
  const preflight = (origin: string) =>
    app.inject({
      method: 'OPTIONS',
      url: '/api/auth/login/',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
  const ok = await preflight('https://tazamun.example.org');
  assert.equal(ok.headers['access-control-allow-origin'], 'https://tazamun.example.org');
  const evil = await preflight('https://evil.example.com');
  assert.equal(evil.headers['access-control-allow-origin'], undefined);
  const simple = await app.inject({ url: '/api/health/', headers: { origin: 'https://evil.example.com' } });
  assert.equal(simple.headers['access-control-allow-origin'], undefined);
  // with no CORS_ORIGIN configured, no cross-origin access at all
  const { app: closed } = await createTestApp(t);
  const none = await closed.inject({
    url: '/api/health/',
    headers: { origin: 'https://tazamun.example.org' },
  });
  assert.equal(none.headers['access-control-allow-origin'], undefined);
});

test('passwords are stored only as argon2id hashes, refresh tokens only as hashes', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const row = await app.deps.db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', u.id)
    .executeTakeFirstOrThrow();
  assert.match(row.password_hash, /^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/);
  assert.ok(!row.password_hash.includes(u.password));
  const sessions = await app.deps.db.selectFrom('sessions').select('refresh_hash').execute();
  assert.equal(sessions.length, 1, 'the one sign-in of approvedUser');
  for (const s of sessions) {
    assert.notEqual(s.refresh_hash, u.refresh);
    assert.ok(!u.refresh.includes(s.refresh_hash) && !s.refresh_hash.includes(u.refresh));
  }
});
