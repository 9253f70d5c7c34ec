// The hostile-request catalogue (issue 12), accounts and files: parallel guessing against the lockout,
// reset links that outlive their use, a rejected owner's public links, SVG avatars, download names that
// split characters or carry bidi overrides, and what /api/source/ may publish. Both databases.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '@tazamun/server/testing/until';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { LIMITS } from '@tazamun/contracts/limits';
import {
  GOOD_PASSWORD,
  approvedUser,
  bearer,
  createTestApp,
  expectError,
  login,
  makeAdmin,
  registerUser,
} from '@tazamun/server/testing/test-app';
import { createJobsTestApp, evalClip, upload, waitForStatus } from '@tazamun/server/testing/jobs-test-app';
import { contentDisposition, safeBaseName } from '../media/send-file.ts';
import { sourceFiles } from '../routes/source/source-archive.ts';

const WRONG = 'Wrong-Password-0000';

function codeOf(res: LightMyRequestResponse): string {
  return res.statusCode === 200 ? '200' : `${res.statusCode} ${res.json().code}`;
}

async function failures(app: FastifyInstance, email: string): Promise<number> {
  const row = await app.deps.db
    .selectFrom('login_attempts')
    .select('failures')
    .where('email_key', '=', email.toLowerCase())
    .executeTakeFirst();
  return row ? Number(row.failures) : 0;
}

test('parallel guesses cannot get past the lockout: at most 5 attempts reach the password check', async (t) => {
  const { app } = await createTestApp(t);
  const max = LIMITS.maxLoginAttempts;

  // 1. fourteen wrong guesses in flight, then the right password while they are still being checked:
  //    every attempt is counted before its hash, so the right one is the 15th and is refused
  const a = await approvedUser(app);
  const wrong = Array.from({ length: 14 }, () => login(app, a.email, WRONG));
  await until('the 14 attempts counted', async () => (await failures(app, a.email)) >= 14);
  const right = await login(app, a.email, a.password);
  const answers = (await Promise.all(wrong)).map(codeOf);
  expectError(right, 429, 'account_locked');
  assert.equal(right.json().lockout_minutes, LIMITS.lockoutMinutes);
  // exactly the first 5 were checked: 4 wrong (401) and the 5th locking (429 too_many_attempts)
  assert.deepEqual(
    answers.toSorted(),
    [
      ...Array(max - 1).fill('401 invalid_credentials'),
      ...Array(14 - max).fill('429 account_locked'),
      '429 too_many_attempts',
    ].toSorted(),
  );
  const remaining = (await Promise.all(wrong))
    .filter((r) => r.statusCode === 401)
    .map((r) => r.json().attempts_remaining as number)
    .sort();
  assert.deepEqual(remaining, [1, 2, 3, 4]);
  // and the lock holds for the right password afterwards
  expectError(await login(app, a.email, a.password), 429, 'account_locked');

  // 2. all fifteen at once, the right one among them: whatever the order, exactly 5 are checked and
  //    10 are refused unchecked; the right one gets in only if it was among the 5
  const b = await approvedUser(app);
  const burst = [
    ...Array.from({ length: 7 }, () => login(app, b.email, WRONG)),
    login(app, b.email, b.password),
    ...Array.from({ length: 7 }, () => login(app, b.email, WRONG)),
  ];
  const codes = (await Promise.all(burst)).map(codeOf);
  const checked = codes.filter((c) => c !== '429 account_locked');
  assert.equal(codes.filter((c) => c === '429 account_locked').length, 15 - max, codes.join(', '));
  assert.equal(checked.length, max, codes.join(', '));
  assert.ok(codes.filter((c) => c === '200').length <= 1);
  if (codes[7] === '200') {
    // checked alongside at most one wrong guess numbered 5 (which locks)
    assert.ok(codes.filter((c) => c === '429 too_many_attempts').length <= 1, codes.join(', '));
  } else {
    assert.equal(codes[7], '429 account_locked');
    assert.equal(codes.filter((c) => c === '429 too_many_attempts').length, 1, codes.join(', '));
    expectError(await login(app, b.email, b.password), 429, 'account_locked');
  }
});

async function resetToken(app: FastifyInstance, email: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/password-reset/', payload: { email } });
  assert.equal(res.statusCode, 200, res.body);
  const mail = (
    await app.deps.db
      .selectFrom('email_outbox')
      .selectAll()
      .where('kind', '=', 'password_reset')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute()
  )[0]!;
  return /Reset token: (\S+)/.exec(mail.body)![1]!;
}

test('reset links are single use, and every outstanding one dies on reset, password change, rejection and deletion', async (t) => {
  const { app, clock } = await createTestApp(t);
  const confirm = (token: string, password: string) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm/',
      payload: { token, new_password: password, new_password_confirm: password },
    });
  const tick = () => clock.advance(1000); // distinct created_at for the ordering above

  // reset: the used link and a second one sent before it are both dead
  const u = await approvedUser(app);
  const first = await resetToken(app, u.email);
  tick();
  const second = await resetToken(app, u.email);
  assert.equal((await confirm(first, 'Quiet-River-2031')).statusCode, 200);
  expectError(await confirm(first, 'Other-River-2032'), 400, 'reset_token_invalid');
  expectError(await confirm(second, 'Other-River-2032'), 400, 'reset_token_invalid');
  assert.equal((await login(app, u.email, 'Quiet-River-2031')).statusCode, 200);

  // two parallel uses of one link: exactly one wins
  tick();
  const once = await resetToken(app, u.email);
  const both = await Promise.all([confirm(once, 'Bright-Harbor-4417'), confirm(once, 'Calm-Meadow-5528')]);
  assert.deepEqual(both.map((r) => r.statusCode).sort(), [200, 400]);

  // change-password kills the links sent before it
  const v = await approvedUser(app);
  tick();
  const beforeChange = await resetToken(app, v.email);
  const changed = await app.inject({
    method: 'POST',
    url: '/api/auth/change-password/',
    headers: bearer(v.access),
    payload: {
      current_password: v.password,
      new_password: 'Steady-Canyon-7781',
      new_password_confirm: 'Steady-Canyon-7781',
    },
  });
  assert.equal(changed.statusCode, 200, changed.body);
  expectError(await confirm(beforeChange, 'Other-River-2032'), 400, 'reset_token_invalid');
  assert.equal((await login(app, v.email, 'Steady-Canyon-7781')).statusCode, 200);

  // rejection: the link dies with the sessions
  const admin = await approvedUser(app);
  await makeAdmin(app, admin.id);
  const w = await approvedUser(app);
  tick();
  const beforeReject = await resetToken(app, w.email);
  const rejected = await app.inject({
    method: 'POST',
    url: `/api/admin/users/${w.id}/reject/`,
    headers: bearer(admin.access),
  });
  assert.equal(rejected.statusCode, 200, rejected.body);
  expectError(await confirm(beforeReject, 'Other-River-2032'), 400, 'reset_token_invalid');

  // deletion: no link row is left for the account, and the link is refused
  const x = await approvedUser(app);
  tick();
  const beforeDelete = await resetToken(app, x.email);
  const deleted = await app.inject({
    method: 'DELETE',
    url: '/api/auth/account/',
    headers: bearer(x.access),
    payload: { password: x.password, confirmation: 'DELETE' },
  });
  assert.equal(deleted.statusCode, 200, deleted.body);
  const left = await app.deps.db
    .selectFrom('password_resets')
    .select('user_id')
    .where('user_id', '=', x.id)
    .execute();
  assert.deepEqual(left, []);
  expectError(await confirm(beforeDelete, 'Other-River-2032'), 400, 'reset_token_invalid');
});

const multipartFile = (field: string, filename: string, type: string, data: Buffer) => {
  const boundary = '----tazamun-hostile-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
};

test('avatars: only the listed raster formats reach the decoder; SVG and friends are refused', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const send = async (name: string, type: string, data: Buffer) => {
    const m = multipartFile('avatar', name, type, data);
    return app.inject({
      method: 'POST',
      url: '/api/auth/avatar/',
      payload: m.payload,
      headers: { ...m.headers, ...bearer(u.access) },
    });
  };
  const svg = Buffer.from(
    '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">' +
      '<rect width="64" height="64" fill="red"/></svg>',
  );
  const refused: [string, string, Buffer][] = [
    ['a.svg', 'image/svg+xml', svg],
    ['a.png', 'image/png', svg], // renamed
    ['a.svg', 'image/svg+xml', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), svg])], // with a BOM
    ['a.pdf', 'application/pdf', Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')],
    // a PNG signature glued onto an SVG: the signature and the decoder disagree
    [
      'b.png',
      'image/png',
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), svg]),
    ],
  ];
  for (const [name, type, data] of refused) {
    const err = expectError(await send(name, type, data), 415, 'file_type_invalid');
    assert.equal(err.detail, 'Invalid file type. Accepted formats: PNG, JPEG, WebP, GIF, AVIF, TIFF.');
  }
  const row = await app.deps.db
    .selectFrom('users')
    .select('avatar_file')
    .where('id', '=', u.id)
    .executeTakeFirstOrThrow();
  assert.equal(row.avatar_file, null);
  // every listed format is still accepted
  const base = () =>
    sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 10, g: 120, b: 200 } } });
  const accepted: [string, Buffer][] = [
    ['png', await base().png().toBuffer()],
    ['jpeg', await base().jpeg().toBuffer()],
    ['webp', await base().webp().toBuffer()],
    ['gif', await base().gif().toBuffer()],
    ['avif', await base().avif().toBuffer()],
    ['tiff', await base().tiff().toBuffer()],
  ];
  for (const [format, data] of accepted) {
    const res = await send(`a.${format}`, `image/${format}`, data);
    assert.equal(res.statusCode, 200, `${format}: ${res.body}`);
  }
});

test('download names: cut between grapheme clusters, bidi controls stripped, never a 500', async (t) => {
  // the names alone
  const emojiAtCut = `${'a'.repeat(79)}😀 tail`;
  assert.equal(safeBaseName(emojiAtCut), 'a'.repeat(79));
  assert.equal(safeBaseName(`${'b'.repeat(78)}😀x`), `${'b'.repeat(78)}😀`);
  // a letter and its combining mark stay together
  assert.equal(safeBaseName(`${'c'.repeat(79)}e\u0301`), 'c'.repeat(79));
  assert.equal(safeBaseName('report\u202Efdp.exe'), 'reportfdp');
  assert.equal(safeBaseName('\u202E\u2066\u200F'), 'alignment');
  assert.equal(safeBaseName('half \uD83D pair'), 'half \uFFFD pair');
  assert.equal(
    contentDisposition('evil\u202Efdp.exe'),
    `attachment; filename="evilfdp.exe"; filename*=UTF-8''evilfdp.exe`,
  );

  // through the export and video routes, on a completed alignment
  const { app } = await createJobsTestApp(t, { concurrency: 1 });
  const u = await approvedUser(app);
  const clip = evalClip();
  const res = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'clip.wav', content: readFileSync(clip.wav), contentType: 'audio/wav' },
  ]);
  assert.equal(res.statusCode, 202, res.body);
  const id = res.json().id as string;
  assert.equal((await waitForStatus(app, u.access, id)).status, 'completed');
  const titles: [string, string][] = [
    [`${'ت'.repeat(79)}😀 end`, `${'ت'.repeat(79)}.srt`],
    [`${'x'.repeat(78)}𝒜𝒜`, `${'x'.repeat(78)}𝒜.srt`],
    ['invoice\u202Etxt.exe', 'invoicetxt.srt'],
    ['\u2067\u202B', 'alignment.srt'],
  ];
  for (const [title, expected] of titles) {
    await app.deps.db.updateTable('alignments').set({ title }).where('id', '=', id).execute();
    const r = await app.inject({ url: `/api/alignments/${id}/export/srt/`, headers: bearer(u.access) });
    assert.equal(r.statusCode, 200, `${title}: ${r.body.slice(0, 200)}`);
    const header = r.headers['content-disposition'] as string;
    assert.equal(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(header)![1]!), expected);
    assert.ok(!/%E2%80%A[A-E]|%E2%81%A[6-9]|%E2%80%8[EF]/.test(header), header);
  }
});

test('a rejected account loses its share links and signed audio URLs at once', async (t) => {
  const { app } = await createJobsTestApp(t, { concurrency: 1 });
  const admin = await approvedUser(app);
  await makeAdmin(app, admin.id);
  const u = await approvedUser(app);
  const clip = evalClip();
  const res = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'clip.wav', content: readFileSync(clip.wav), contentType: 'audio/wav' },
  ]);
  assert.equal(res.statusCode, 202, res.body);
  const id = res.json().id as string;
  assert.equal((await waitForStatus(app, u.access, id)).status, 'completed');
  const share = await app.inject({
    method: 'POST',
    url: `/api/alignments/${id}/share/`,
    headers: bearer(u.access),
  });
  assert.equal(share.statusCode, 201, share.body);
  const token = share.json().token as string;
  const signed = (
    await app.inject({ url: `/api/alignments/${id}/audio-url/`, headers: bearer(u.access) })
  ).json().url as string;
  // all three work before
  assert.equal((await app.inject({ url: `/api/share/${token}/` })).statusCode, 200);
  assert.equal((await app.inject({ url: `/api/share/${token}/audio/` })).statusCode, 200);
  assert.equal((await app.inject({ url: signed })).statusCode, 200);

  const rejected = await app.inject({
    method: 'POST',
    url: `/api/admin/users/${u.id}/reject/`,
    headers: bearer(admin.access),
  });
  assert.equal(rejected.statusCode, 200, rejected.body);
  expectError(await app.inject({ url: `/api/share/${token}/` }), 404, 'not_found');
  expectError(await app.inject({ url: `/api/share/${token}/audio/` }), 404, 'not_found');
  expectError(await app.inject({ url: signed }), 404, 'not_found');
  const shares = await app.deps.db.selectFrom('shares').selectAll().execute();
  assert.deepEqual(shares, []);
  // approving again does not bring the share link back (it was deleted); the signature works again
  // until it expires, because it names the alignment, and the owner is again entitled to it
  const approved = await app.inject({
    method: 'POST',
    url: `/api/admin/users/${u.id}/approve/`,
    headers: bearer(admin.access),
  });
  assert.equal(approved.statusCode, 200);
  expectError(await app.inject({ url: `/api/share/${token}/` }), 404, 'not_found');
});

test('/api/source/ packs the files git tracks, never an untracked secret; without git it says so', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'tazamun-source-git-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const put = (rel: string, text = 'x') => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  const tracked = ['package.json', 'apps/server/src/app.ts', 'docs/api.md', 'newtop/README.md'];
  for (const f of tracked) put(f);
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], {
      stdio: 'pipe',
    });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'tracked');
  // untracked files inside allowed folders, with names no deny-list would know
  const untracked = [
    'apps/server/.pgpass',
    'apps/server/prod-backup.tar',
    'docs/notes-private.md',
    'packages/deploy_key',
  ];
  for (const f of untracked) put(f);
  put('apps/server/src/app.ts', 'edited, not committed'); // the running version is what is packed
  rmSync(join(root, 'docs/api.md')); // tracked but deleted: skipped, not an error

  const listed = await sourceFiles(root);
  assert.deepEqual(listed, {
    files: ['apps/server/src/app.ts', 'newtop/README.md', 'package.json'],
    origin: 'git',
  });

  // the route itself, on that tree
  const { app } = await createTestApp(t);
  const { sourceRoutes } = await import('../routes/source/source-routes.ts');
  await app.register(sourceRoutes, { prefix: '/test-source', root });
  const res = await app.inject({ url: '/test-source/' });
  assert.equal(res.statusCode, 200, res.body);
  const entries = execFileSync('tar', ['-tzf', '-'], { input: res.rawPayload })
    .toString('utf8')
    .split('\n')
    .filter(Boolean);
  assert.deepEqual(entries.map((e) => e.slice(e.indexOf('/') + 1)).sort(), [
    'apps/server/src/app.ts',
    'newtop/README.md',
    'package.json',
  ]);

  // no .git (an npm tarball): the allow-list walk, reported as such, still without the known secrets
  rmSync(join(root, '.git'), { recursive: true, force: true });
  const walked = await sourceFiles(root);
  assert.equal(walked.origin, 'walk');
  assert.ok(!walked.files.includes('apps/server/.pgpass'));
  assert.ok(walked.files.includes('apps/server/src/app.ts'));
});

test('four wrong guesses one after another, then the right password: signed in, counter cleared', async (t) => {
  const { app } = await createTestApp(t);
  const u = await registerUser(app, { password: GOOD_PASSWORD });
  for (let i = 0; i < LIMITS.maxLoginAttempts - 1; i++) {
    expectError(await login(app, u.email, WRONG), 401, 'invalid_credentials');
  }
  assert.equal((await login(app, u.email, u.password)).statusCode, 200);
  assert.equal(await failures(app, u.email), 0);
});
