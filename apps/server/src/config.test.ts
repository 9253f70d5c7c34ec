import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig, parseDuration, resolveJwtSecret } from './config.ts';

test('defaults give a working configuration with no variables at all', () => {
  const c = loadConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.dataDir, resolve('./data'));
  assert.deepEqual(c.database, { kind: 'sqlite', file: join(resolve('./data'), 'tazamun.sqlite') });
  assert.equal(c.accessTokenTtlMs, 15 * 60_000);
  assert.equal(c.refreshTokenTtlMs, 14 * 86_400_000);
  assert.ok(c.rememberMeTtlMs > c.refreshTokenTtlMs);
  assert.equal(c.autoApprove, false);
  assert.equal(c.defaultDailyQuota, 10);
  assert.equal(c.jwtSecret, null);
  assert.equal(c.corsOrigin, null);
  assert.equal(c.publicUrl, 'http://localhost:8080');
});

test('variables are parsed: durations, booleans, lists, sqlite URLs', () => {
  const c = loadConfig({
    PORT: '9000',
    ACCESS_TOKEN_TTL: '5m',
    REFRESH_TOKEN_TTL: '86400',
    AUTO_APPROVE: 'true',
    DEFAULT_DAILY_QUOTA: '3',
    CORS_ORIGIN: 'https://a.example, https://b.example',
    DATABASE_URL: 'sqlite:///var/lib/tazamun/db.sqlite',
    ORG_NAME: 'Lab',
  });
  assert.equal(c.port, 9000);
  assert.equal(c.accessTokenTtlMs, 300_000);
  assert.equal(c.refreshTokenTtlMs, 86_400_000);
  assert.equal(c.autoApprove, true);
  assert.equal(c.defaultDailyQuota, 3);
  assert.deepEqual(c.corsOrigin, ['https://a.example', 'https://b.example']);
  assert.deepEqual(c.database, { kind: 'sqlite', file: '/var/lib/tazamun/db.sqlite' });
  assert.equal(loadConfig({ DATABASE_URL: 'sqlite:rel/x.sqlite' }).database.file, resolve('rel/x.sqlite'));
  assert.equal(parseDuration('2h'), 7_200_000);
  assert.equal(parseDuration('soon'), null);
});

test('every bad variable is reported at once', () => {
  const err = (() => {
    try {
      loadConfig({
        PORT: 'eighty',
        ACCESS_TOKEN_TTL: 'soon',
        AUTO_APPROVE: 'maybe',
        JWT_SECRET: 'short',
        LOG_LEVEL: 'loud',
      });
    } catch (e) {
      return e;
    }
    return null;
  })();
  assert.ok(err instanceof ConfigError);
  const fields = err.problems.map((p) => p.split(':')[0]);
  assert.deepEqual(fields.sort(), ['ACCESS_TOKEN_TTL', 'AUTO_APPROVE', 'JWT_SECRET', 'LOG_LEVEL', 'PORT']);
  assert.match(err.message, /invalid configuration/);
});

test('a postgres DATABASE_URL selects PostgreSQL; other schemes are refused', () => {
  assert.deepEqual(loadConfig({ DATABASE_URL: 'postgres://u:p@localhost/tazamun' }).database, {
    kind: 'postgres',
    url: 'postgres://u:p@localhost/tazamun',
  });
  assert.equal(loadConfig({ DATABASE_URL: 'postgresql://db.internal:5433/t' }).database.kind, 'postgres');
  assert.throws(() => loadConfig({ DATABASE_URL: 'mysql://x' }), ConfigError);
});

test('a missing JWT secret is generated once and persisted with mode 0600', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-config-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const c = loadConfig({ DATA_DIR: dir });
  const first = resolveJwtSecret(c);
  assert.equal(first.source, 'generated');
  assert.ok(first.secret.length >= 32);
  assert.equal(statSync(join(dir, 'secret')).mode & 0o777, 0o600);
  const second = resolveJwtSecret(c);
  assert.deepEqual(second, { secret: first.secret, source: 'file' });
  assert.equal(readFileSync(join(dir, 'secret'), 'utf8').trim(), first.secret);
  const fromEnv = resolveJwtSecret(loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x'.repeat(40) }));
  assert.equal(fromEnv.source, 'env');
});

test('variables set to an empty string take their defaults', () => {
  const c = loadConfig({ PORT: '', JWT_SECRET: '', AUTO_APPROVE: ' ', DATABASE_URL: '' });
  assert.equal(c.port, 8080);
  assert.equal(c.jwtSecret, null);
  assert.equal(c.autoApprove, false);
  assert.equal(c.database.file, join(resolve('./data'), 'tazamun.sqlite'));
});
