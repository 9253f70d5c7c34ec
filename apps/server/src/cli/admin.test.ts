// The admin CLI run as a child process against a temporary DATA_DIR, as an operator would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildApp } from '../app.ts';
import { approvedUser, testConfig } from '@tazamun/server/testing/test-app';
import { evalClip, upload, waitForStatus } from '@tazamun/server/testing/jobs-test-app';
import { loadConfig } from '../config.ts';

const run = promisify(execFile);
const CLI = join(dirname(fileURLToPath(import.meta.url)), 'admin.ts');

type Outcome = { code: number; stdout: string; stderr: string };

function admin(dir: string, ...args: string[]): Promise<Outcome> {
  return adminWith({ LOG_LEVEL: 'silent' }, dir, ...args);
}

/** `undefined` in `env` removes the variable. */
async function adminWith(
  env: Record<string, string | undefined>,
  dir: string,
  ...args: string[]
): Promise<Outcome> {
  const merged: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir, DATABASE_URL: '', ...env };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, ...args], {
      env: merged,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test('admin CLI: create, list, approve, set-quota, promote, reject; the API sees the changes', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));

  const created = await admin(
    dir,
    'create',
    '--email',
    'Root@Example.org',
    '--password',
    'Tr1cky-Lantern-88',
    '--first-name',
    'Rania',
  );
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /created admin Root@Example\.org/);

  const config = testConfig(dir, { database: { kind: 'sqlite', file: join(dir, 'tazamun.sqlite') } });
  const app = await buildApp(config, { logger: false });
  t.after(() => app.close());
  const reg = await app.inject({
    method: 'POST',
    url: '/api/auth/register/',
    payload: {
      first_name: 'Omar',
      last_name: 'Saleh',
      email: 'omar@example.org',
      password: 'Quiet-River-2031',
      password_confirm: 'Quiet-River-2031',
    },
  });
  assert.equal(reg.statusCode, 201);
  const access = reg.json().tokens.access;
  const bob = await app.inject({
    method: 'POST',
    url: '/api/auth/register/',
    payload: {
      first_name: 'Bob',
      last_name: 'Stone',
      email: 'bob@example.org',
      password: 'Quiet-River-2031',
      password_confirm: 'Quiet-River-2031',
    },
  });
  assert.equal(bob.statusCode, 201);

  const pending = await admin(dir, 'list', '--pending');
  assert.equal(pending.code, 0, pending.stderr);
  const lines = pending.stdout.trim().split('\n');
  assert.equal(lines.length, 3);
  assert.match(lines[1]!, /^omar@example\.org\tpending\tuser\t0\/10\t/);

  assert.equal((await admin(dir, 'approve', 'OMAR@example.org')).code, 0);
  assert.equal(
    (await app.inject({ url: '/api/auth/profile/', headers: { authorization: `Bearer ${access}` } })).json()
      .is_approved,
    true,
  );

  const quota = await admin(dir, 'set-quota', 'omar@example.org', '3');
  assert.equal(quota.code, 0, quota.stderr);
  const q = (
    await app.inject({ url: '/api/auth/quota/', headers: { authorization: `Bearer ${access}` } })
  ).json().quota;
  assert.equal(q.daily_limit, 3);

  assert.equal((await admin(dir, 'promote', 'omar@example.org')).code, 0);
  assert.equal(
    (await app.inject({ url: '/api/auth/profile/', headers: { authorization: `Bearer ${access}` } })).json()
      .role,
    'admin',
  );

  assert.equal((await admin(dir, 'reject', 'bob@example.org')).code, 0);
  const all = await admin(dir, 'list');
  assert.match(all.stdout, /bob@example\.org\trejected\tuser/);
  assert.match(all.stdout, /Root@Example\.org\tapproved\tadmin/);
  const mails = await app.deps.db
    .selectFrom('email_outbox')
    .select(['to_address', 'kind'])
    .orderBy('kind')
    .execute();
  assert.deepEqual(mails, [
    { to_address: 'omar@example.org', kind: 'approved' },
    { to_address: 'bob@example.org', kind: 'rejected' },
  ]);
});

test('admin CLI refuses bad input with exit codes 1 (refused) and 2 (usage)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const weak = await admin(dir, 'create', '--email', 'a@example.org', '--password', 'password');
  assert.equal(weak.code, 1);
  assert.match(weak.stderr, /too common/);
  const missing = await admin(dir, 'approve', 'ghost@example.org');
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no account with email ghost@example\.org/);
  const usage = await admin(dir, 'explode');
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /usage: npm run admin/);
  assert.equal((await admin(dir, 'set-quota', 'a@example.org', 'lots')).code, 2);
  assert.equal((await admin(dir, 'create', '--email', 'a@example.org')).code, 2);
  // a person's account is not named "Admin Tazamun" behind the operator's back
  const user = (...names: string[]) =>
    admin(
      dir,
      'create',
      '--email',
      'b@example.org',
      '--password',
      'Tr1cky-Lantern-88',
      '--role',
      'user',
      ...names,
    );
  const unnamed = await user('--first-name', 'Nour');
  assert.equal(unnamed.code, 2);
  assert.match(unnamed.stderr, /create --role user needs --first-name and --last-name/);
  assert.equal((await user('--last-name', 'Aziz')).code, 2);
  const named = await user('--first-name', 'Nour', '--last-name', 'Aziz');
  assert.equal(named.code, 0, named.stderr);
  const listed = await admin(dir, 'list');
  assert.match(listed.stdout, /^b@example\.org\tapproved\tuser\t.*\tNour Aziz$/m);
});

test('admin CLI: a bad variable fails as at server boot, exit 78 with every bad variable listed', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bad = await adminWith({ LOG_LEVEL: 'loud', DATABASE_POOL_MAX: '0' }, dir, 'list');
  assert.equal(bad.code, 78, bad.stderr);
  assert.match(bad.stderr, /invalid configuration/);
  assert.match(bad.stderr, /LOG_LEVEL: /);
  assert.match(bad.stderr, /DATABASE_POOL_MAX: /);
  assert.equal(bad.stdout, '');
  assert.equal(existsSync(join(dir, 'tazamun.sqlite')), false, 'refused before opening the database');
});

test('admin CLI: its log stays off stdout unless LOG_LEVEL asks for it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const email of ['quiet@example.org', 'loud@example.org']) {
    const created = await admin(
      dir,
      'create',
      '--email',
      email,
      '--password',
      'Tr1cky-Lantern-88',
      '--role',
      'user',
      '--first-name',
      'Nour',
      '--last-name',
      'Aziz',
    );
    assert.equal(created.code, 0, created.stderr);
  }
  // rejecting mails the user, which the outbox logs at info
  const quiet = await adminWith({ LOG_LEVEL: undefined }, dir, 'reject', 'quiet@example.org');
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.equal(quiet.stdout, 'rejected quiet@example.org\n');
  const loud = await adminWith({ LOG_LEVEL: 'info' }, dir, 'reject', 'loud@example.org');
  assert.equal(loud.code, 0, loud.stderr);
  assert.match(loud.stdout, /"msg":"email queued in outbox \(not sent\)"/);
  assert.match(loud.stdout, /^rejected loud@example\.org$/m);
});

test('admin CLI: failed jobs are listed with their error and retried; cancel; refusals', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-cli-jobs-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // SQLite file or a PostgreSQL schema (TAZAMUN_TEST_DB), shared by the app and the CLI
  const config = testConfig(dir);
  const databaseUrl = config.database.kind === 'postgres' ? config.database.url : config.database.file;
  const cli = (...args: string[]) =>
    adminWith({ LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl }, dir, ...args);
  // 1 ms for any job: the first runs time out, as on an overloaded server
  const app = await buildApp(config, {
    logger: false,
    jobs: {
      ...loadConfig({}).jobs,
      concurrency: 1,
      leaseMs: 5000,
      pollMs: 200,
      demoMediaDir: null,
      timeoutBaseMs: 1,
      timeoutPerAudioSecond: 0,
    },
  });
  t.after(() => app.close());
  await app.ready();
  const user = await approvedUser(app, { email: 'nadia@example.org' });
  const clip = evalClip();
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const res = await upload(app, user.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: clip.text },
      { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
    ]);
    assert.equal(res.statusCode, 202, res.body);
    ids.push(res.json().id as string);
  }
  for (const id of ids) assert.equal((await waitForStatus(app, user.access, id)).status, 'failed');

  const listed = await cli('jobs', '--status', 'failed');
  assert.equal(listed.code, 0, listed.stderr);
  const [header, ...rows] = listed.stdout.trim().split('\n');
  assert.equal(
    header,
    'id\tkind\tstatus\tattempts\tworker\tcreated\tstarted\tfinished\talignment\tuser\terror\tlast_error',
  );
  const cells = rows.map((r) => r.split('\t'));
  assert.deepEqual(cells.map((c) => c[8]).sort(), [...ids].sort());
  for (const c of cells) {
    assert.deepEqual([c[1], c[2], c[3], c[4]], ['align', 'failed', '1/3', app.jobs.queue.workerId]);
    assert.deepEqual([c[9], c[10], c[11]], ['nadia@example.org', 'timeout', 'timed out after 1 ms']);
  }

  // retried from the CLI with its own (default) time limit: the running app's worker completes it
  const jobId = cells.find((c) => c[8] === ids[0])![0]!;
  const retried = await cli('retry-job', jobId);
  assert.equal(retried.code, 0, retried.stderr);
  assert.equal(retried.stdout.trim(), `job ${jobId} queued again (alignment ${ids[0]})`);
  assert.equal((await waitForStatus(app, user.access, ids[0]!)).status, 'completed');
  const done = await cli('jobs', '--status', 'completed');
  assert.deepEqual(
    done.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((r) => r.split('\t').slice(0, 4)),
    [[jobId, 'align', 'completed', '1/3']],
  );

  // refusals: a completed job is neither retried nor cancelled; bad usage exits 2
  const again = await cli('retry-job', jobId);
  assert.equal(again.code, 1);
  assert.equal(again.stderr.trim(), 'error: job_not_retryable');
  const cancel = await cli('cancel-job', jobId);
  assert.equal(cancel.code, 1);
  assert.equal(cancel.stderr.trim(), 'error: job_not_cancellable');
  assert.equal((await cli('retry-job', 'no-such-job')).code, 1);
  assert.equal((await cli('jobs', '--status', 'stuck')).code, 2);
  assert.equal((await cli('retry-job')).code, 2);
});
