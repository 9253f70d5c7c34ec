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
  assert.equal(c.orgName, null, 'no parent organisation unless ORG_NAME says so');
  assert.equal(loadConfig({ ORG_NAME: ' Lab ' }).orgName, 'Lab');
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
    poolMax: 10,
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

test('bad variables of the job, Redis, storage, rate-limit and upload modules are listed together at boot', () => {
  const err = (() => {
    try {
      loadConfig({
        PORT: '-1',
        JOB_LEASE: 'forever',
        WORKER_CONCURRENCY: 'many',
        REDIS_URL: 'http://cache:6379',
        AUTH_EMAIL_RATE_LIMIT: '0',
        S3_BUCKET: 'files',
        S3_ENDPOINT: 'minio:9000',
        S3_ACCESS_KEY_ID: 'only-the-id',
        UPLOAD_PROBE_CONCURRENCY: 'lots',
        DATABASE_POOL_MAX: '0',
        DATABASE_URL: 'mysql://db/x',
      });
    } catch (e) {
      return e;
    }
    return null;
  })();
  assert.ok(err instanceof ConfigError, String(err));
  const fields = err.problems.map((p) => p.split(':')[0]).sort();
  assert.deepEqual(fields, [
    'AUTH_EMAIL_RATE_LIMIT',
    'DATABASE_POOL_MAX',
    'DATABASE_URL',
    'JOB_LEASE',
    'PORT',
    'REDIS_URL',
    'S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY',
    'S3_ENDPOINT',
    'UPLOAD_PROBE_CONCURRENCY',
    'WORKER_CONCURRENCY',
  ]);
  // Each refusal alone says what is wrong in the module's words.
  assert.throws(
    () => loadConfig({ REDIS_URL: 'http://cache:6379' }),
    /REDIS_URL: must start with redis:\/\//,
  );
  assert.throws(() => loadConfig({ JOB_LEASE: 'forever' }), /JOB_LEASE: expected a duration/);
  assert.throws(() => loadConfig({ AUTH_EMAIL_RATE_LIMIT: '0' }), ConfigError);
  assert.throws(() => loadConfig({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'x' }), /together/);
});

test('the modules get their parsed slice of the config: defaults, values, empty means default', () => {
  const c = loadConfig({
    REDIS_URL: 'redis://127.0.0.1:6390',
    AUTH_EMAIL_RATE_LIMIT: '7',
    UPLOAD_PROBE_CONCURRENCY: '3',
    UPLOAD_PROBE_QUEUE: '0',
    S3_BUCKET: ' ',
  });
  assert.equal(c.redisUrl, 'redis://127.0.0.1:6390');
  assert.equal(c.authEmailRateLimit, 7);
  assert.deepEqual(c.uploadProbe, { concurrency: 3, queue: 0 });
  assert.equal(c.s3, null);
  assert.equal(loadConfig({ REDIS_URL: '' }).redisUrl, null);
  assert.equal(loadConfig({ REDIS_URL: 'rediss://r:6380' }).redisUrl, 'rediss://r:6380');
  assert.equal(loadConfig({}).authEmailRateLimit, 20);
  const { jobs } = loadConfig({ JOB_TIMEOUT_BASE: '2m', WORKER_CONCURRENCY: '3', DEMO_MEDIA_DIR: '' });
  assert.equal(jobs.timeoutBaseMs, 120_000);
  assert.equal(jobs.concurrency, 3);
  assert.equal(jobs.demoMediaDir, null);
  assert.equal(loadConfig({ WORKER_CONCURRENCY: '3' }, {}, ['--role=api']).jobs.concurrency, 0);
});

test('DATABASE_POOL_MAX reaches a PostgreSQL target as a parsed number', () => {
  const url = 'postgres://u@localhost/tazamun';
  assert.deepEqual(loadConfig({ DATABASE_URL: url, DATABASE_POOL_MAX: '25' }).database, {
    kind: 'postgres',
    url,
    poolMax: 25,
  });
  for (const unset of [{}, { DATABASE_POOL_MAX: '' }])
    assert.deepEqual(loadConfig({ DATABASE_URL: url, ...unset }).database, {
      kind: 'postgres',
      url,
      poolMax: 10,
    });
  assert.deepEqual(Object.keys(loadConfig({ DATABASE_POOL_MAX: '25' }).database).sort(), ['file', 'kind']);
  for (const bad of ['0', '1001', 'ten', '2.5'])
    assert.throws(
      () => loadConfig({ DATABASE_URL: url, DATABASE_POOL_MAX: bad }),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.problems.length === 1 &&
        err.problems[0]!.startsWith('DATABASE_POOL_MAX:'),
      bad,
    );
});

test("an entry point's own default stands in for an unset variable and is checked like a set one", () => {
  assert.equal(loadConfig({}).logLevel, 'info');
  assert.equal(loadConfig({}, { LOG_LEVEL: 'warn' }).logLevel, 'warn');
  assert.equal(loadConfig({ LOG_LEVEL: '' }, { LOG_LEVEL: 'warn' }).logLevel, 'warn');
  assert.equal(loadConfig({ LOG_LEVEL: 'debug' }, { LOG_LEVEL: 'warn' }).logLevel, 'debug');
  assert.throws(
    () => loadConfig({ LOG_LEVEL: 'loud', PORT: 'eighty' }, { LOG_LEVEL: 'warn' }),
    (err: unknown) =>
      err instanceof ConfigError &&
      err.problems
        .map((p) => p.split(':')[0])
        .sort()
        .join() === 'LOG_LEVEL,PORT',
  );
  assert.throws(() => loadConfig({}, { LOG_LEVEL: 'chatty' }), /LOG_LEVEL/);
});

test('MAX_AUDIO_DURATION: 3 h by default, any duration, refused at boot when unreadable', () => {
  assert.equal(loadConfig({}).jobs.maxAudioSeconds, 10_800);
  assert.equal(loadConfig({ MAX_AUDIO_DURATION: '90m' }).jobs.maxAudioSeconds, 5400);
  assert.equal(loadConfig({ MAX_AUDIO_DURATION: '600' }).jobs.maxAudioSeconds, 600);
  assert.throws(() => loadConfig({ MAX_AUDIO_DURATION: 'long' }), /MAX_AUDIO_DURATION: expected a duration/);
});

test('JOB_DRAIN_TIMEOUT: off (0) by default, any duration or 0, refused when unreadable', () => {
  assert.equal(loadConfig({}).jobs.drainMs, 0);
  assert.equal(loadConfig({ JOB_DRAIN_TIMEOUT: '5m' }).jobs.drainMs, 300_000);
  assert.equal(loadConfig({ JOB_DRAIN_TIMEOUT: '0' }).jobs.drainMs, 0);
  assert.throws(() => loadConfig({ JOB_DRAIN_TIMEOUT: 'soon' }), /JOB_DRAIN_TIMEOUT: expected a duration/);
});
