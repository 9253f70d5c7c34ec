// Builds a real app on a real database in a fresh temp directory, with a hand-moved clock. The
// database is a SQLite file, or with TAZAMUN_TEST_DB=postgres a fresh schema in a real PostgreSQL
// cluster (TAZAMUN_TEST_PG_URL, or one started for this test process), so one suite covers both.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ErrorBody } from '@tazamun/contracts/error-body';
import { buildApp } from '../src/app.ts';
import { ManualClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import type { Config, DatabaseTarget } from '../src/config.ts';
import { psqlSync, startPostgres } from './postgres-server.ts';

export const GOOD_PASSWORD = 'Lantern-Orbit-1987';

export const TEST_DB: 'sqlite' | 'postgres' = (() => {
  const v = process.env.TAZAMUN_TEST_DB ?? 'sqlite';
  if (v !== 'sqlite' && v !== 'postgres')
    throw new Error(`TAZAMUN_TEST_DB must be sqlite or postgres, got "${v}"`);
  return v;
})();

/** The cluster's URL in postgres mode. A missing server fails every test loudly, it never skips them. */
export const TEST_PG_URL: string | null =
  TEST_DB !== 'postgres' ? null : (process.env.TAZAMUN_TEST_PG_URL ?? (await ownPostgres()));

async function ownPostgres(): Promise<string> {
  const server = await startPostgres();
  // node:test runs each file in its own process; the cluster lives as long as that process, and must
  // not be what keeps it alive.
  server.process.unref();
  (server.process.stderr as { unref?: () => void } | null)?.unref?.();
  process.on('exit', () => {
    server.process.kill('SIGQUIT'); // immediate shutdown: postgres takes its children down
    rmSync(server.dir, { recursive: true, force: true });
  });
  return server.url;
}

/** A fresh database for one app: a SQLite file in `dir`, or a new schema in the test cluster. */
export function testDatabase(dir: string): DatabaseTarget {
  if (!TEST_PG_URL) return { kind: 'sqlite', file: join(dir, 'tazamun.sqlite') };
  const schema = `t_${randomBytes(8).toString('hex')}`;
  psqlSync(TEST_PG_URL, `create schema ${schema}`);
  const url = new URL(TEST_PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { kind: 'postgres', url: url.toString() };
}

/** The defaults of an empty environment (never the test process's own), with test values over them. */
export function testConfig(dir: string, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    database: overrides.database ?? testDatabase(dir),
    jwtSecret: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    accessTokenTtlMs: 15 * 60_000,
    refreshTokenTtlMs: 14 * 86_400_000,
    rememberMeTtlMs: 60 * 86_400_000,
    passwordResetTtlMs: 3_600_000,
    autoApprove: false,
    defaultDailyQuota: 10,
    corsOrigin: null,
    logLevel: 'silent',
    orgName: 'Tazamun Lab',
    orgUrl: 'https://lab.example.org',
    orgLogoUrl: null,
    supportEmail: 'support@example.org',
    publicUrl: 'http://localhost:8080',
    authRateLimitPerMinute: 100_000,
    webDist: join(dir, 'no-web-build'),
    trustProxy: false,
    minFreeDiskBytes: 0,
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  clock: ManualClock;
  dir: string;
  config: Config;
}

export async function createTestApp(
  t: TestContext,
  overrides: Partial<Config> = {},
  /** runs in the fresh data directory before the app is built (e.g. to lay out a web bundle) */
  prepare?: (dir: string) => Partial<Config>,
): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-server-test-'));
  const config = testConfig(dir, { ...overrides, ...prepare?.(dir) });
  const clock = new ManualClock();
  const app = await buildApp(config, { clock, logger: false });
  t.after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { app, clock, dir, config };
}

export const bearer = (access: string) => ({ authorization: `Bearer ${access}` });

export interface Registered {
  id: string;
  email: string;
  password: string;
  access: string;
  refresh: string;
}

let counter = 0;

export async function registerUser(
  app: FastifyInstance,
  fields: Partial<{ first_name: string; last_name: string; email: string; password: string }> = {},
): Promise<Registered> {
  counter += 1;
  const password = fields.password ?? GOOD_PASSWORD;
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register/',
    payload: {
      first_name: fields.first_name ?? 'Amina',
      last_name: fields.last_name ?? 'Haddad',
      email: fields.email ?? `user${counter}@example.org`,
      password,
      password_confirm: password,
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  const body = res.json();
  return {
    id: body.user.id,
    email: body.user.email,
    password,
    access: body.tokens.access,
    refresh: body.tokens.refresh,
  };
}

export async function approve(app: FastifyInstance, userId: string): Promise<void> {
  await app.deps.db.updateTable('users').set({ status: 'approved' }).where('id', '=', userId).execute();
}

export async function makeAdmin(app: FastifyInstance, userId: string): Promise<void> {
  await app.deps.db
    .updateTable('users')
    .set({ status: 'approved', role: 'admin' })
    .where('id', '=', userId)
    .execute();
}

/** A registered, approved user. */
export async function approvedUser(app: FastifyInstance, fields: Parameters<typeof registerUser>[1] = {}) {
  const u = await registerUser(app, fields);
  await approve(app, u.id);
  return u;
}

export function login(
  app: FastifyInstance,
  email: string,
  password: string,
  extra: Record<string, unknown> = {},
) {
  return app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email, password, ...extra } });
}

export function expectError(
  res: LightMyRequestResponse,
  status: number,
  code: string,
): Record<string, unknown> {
  assert.equal(res.statusCode, status, res.body);
  const body = ErrorBody.parse(res.json());
  assert.equal(body.code, code, res.body);
  assert.ok(body.detail.length > 0);
  if (status < 500) assert.equal(body.request_id, undefined);
  return body;
}
