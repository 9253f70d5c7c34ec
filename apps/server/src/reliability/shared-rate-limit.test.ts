// With REDIS_URL, the per-IP and per-address limits on the auth routes are counted in Redis, so two API
// processes behind a balancer enforce one limit between them, not one each. Two app instances (their own
// databases, their own Redis connections) against a real redis-server; then Redis stops and sign-ins
// still get answers (counted locally) instead of errors.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import type { Config } from '../config.ts';
import { expectError, testConfig } from '@tazamun/server/testing/test-app';
import { startRedis } from '@tazamun/server/testing/redis-server';
import { loadConfig } from '../config.ts';

/** An API-only instance (no job workers: only the auth routes matter here). */
async function apiInstance(t: TestContext, overrides: Partial<Config>): Promise<FastifyInstance> {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-ratelimit-'));
  const app = await buildApp(testConfig(dir, overrides), {
    clock: new ManualClock(),
    logger: false,
    jobs: { ...loadConfig({}).jobs, concurrency: 0, demoMediaDir: null, seedDemos: false },
  });
  t.after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await app.ready();
  return app;
}

function login(app: FastifyInstance, email: string, ip: string) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/login/',
    payload: { email, password: 'not-the-password-1' },
    remoteAddress: ip,
  });
}

test('per-IP and per-address limits hold across two API instances sharing Redis', async (t) => {
  const redis = await startRedis();
  const shared = { redisUrl: redis.url, authRateLimitPerMinute: 4, authEmailRateLimit: 3 };
  const a = await apiInstance(t, shared);
  const b = await apiInstance(t, shared);
  t.after(() => redis.stop()); // after the instances have closed

  // per IP: 4 attempts in all, alternating between the instances, then both refuse this address
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++)
    statuses.push((await login(i % 2 ? b : a, `ip${i}@example.org`, '10.1.0.1')).statusCode);
  assert.deepEqual(statuses, [401, 401, 401, 401]);
  const overA = expectError(await login(a, 'ip9@example.org', '10.1.0.1'), 429, 'rate_limited');
  assert.ok(overA);
  const overB = await login(b, 'ip10@example.org', '10.1.0.1');
  expectError(overB, 429, 'rate_limited');
  assert.ok(Number(overB.headers['retry-after']) > 0);
  // another address is not affected
  assert.equal((await login(b, 'ip11@example.org', '10.1.0.2')).statusCode, 401);

  // per e-mail address: 3 attempts from different IPs over both instances, then 429 on either
  const victim = 'victim@example.org';
  for (let i = 0; i < 3; i++)
    assert.equal((await login(i % 2 ? a : b, victim, `10.2.0.${i + 1}`)).statusCode, 401);
  const overMail = await login(a, victim, '10.2.0.50');
  expectError(overMail, 429, 'rate_limited');
  assert.ok(Number(overMail.headers['retry-after']) > 0);
  expectError(await login(b, victim, '10.2.0.51'), 429, 'rate_limited');

  // Redis stops: sign-ins are still answered (the limits fall back to each process), never a 5xx
  await redis.down();
  for (const app of [a, b]) {
    const res = await login(app, 'during-outage@example.org', '10.3.0.1');
    assert.equal(res.statusCode, 401, res.body);
  }
  // and once it is back, the shared count resumes
  await redis.restart();
  let shared429 = false;
  for (let i = 0; i < 40 && !shared429; i++) {
    const res = await login(i % 2 ? b : a, `back${i}@example.org`, '10.4.0.1');
    assert.ok(res.statusCode === 401 || res.statusCode === 429, `${res.statusCode} ${res.body}`);
    shared429 = res.statusCode === 429;
  }
  assert.ok(shared429, 'the limit applies again after Redis returns');
});

test('without Redis each instance counts on its own (the behaviour the shared store replaces)', async (t) => {
  const own = { redisUrl: null, authRateLimitPerMinute: 2, authEmailRateLimit: 100 };
  const a = await apiInstance(t, own);
  const b = await apiInstance(t, own);
  const codes = [];
  for (const app of [a, a, b, b]) codes.push((await login(app, 'x@example.org', '10.9.0.1')).statusCode);
  assert.deepEqual(codes, [401, 401, 401, 401]);
  expectError(await login(a, 'x@example.org', '10.9.0.1'), 429, 'rate_limited');
});
