import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Db } from '../../db/database.ts';
import {
  approvedUser,
  bearer,
  createTestApp,
  expectError,
  login,
  registerUser,
} from '@tazamun/server/testing/test-app';
import { readZip } from '@tazamun/server/testing/zip-reader';

async function uploadAvatar(app: Awaited<ReturnType<typeof createTestApp>>['app'], access: string) {
  const boundary = 'b0undary';
  const img = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    img,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/avatar/',
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(access) },
  });
  assert.equal(res.statusCode, 200, res.body);
}

async function rowsOf(db: Db, userId: string, email: string): Promise<Record<string, number>> {
  const count = async (
    table: 'users' | 'sessions' | 'preferences' | 'feedback' | 'alignments' | 'password_resets',
    col: string,
    v: string,
  ) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(col as never, '=', v as never)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    users: await count('users', 'id', userId),
    sessions: await count('sessions', 'user_id', userId),
    preferences: await count('preferences', 'user_id', userId),
    feedback: await count('feedback', 'user_id', userId),
    alignments: await count('alignments', 'user_id', userId),
    password_resets: await count('password_resets', 'user_id', userId),
    outbox: Number(
      (
        await db
          .selectFrom('email_outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('to_address', '=', email)
          .executeTakeFirstOrThrow()
      ).n,
    ),
    used_refresh_tokens: Number(
      (
        await db
          .selectFrom('used_refresh_tokens')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  };
}

test('account deletion needs the password and a confirmation word', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const del = (payload: object) =>
    app.inject({ method: 'DELETE', url: '/api/auth/account/', headers: bearer(u.access), payload });
  const wrong = expectError(
    await del({ password: 'not-the-password', confirmation: 'DELETE' }),
    400,
    'validation_error',
  );
  assert.match((wrong.password as string[])[0]!, /invalid/);
  const word = expectError(await del({ password: u.password, confirmation: 'yes' }), 400, 'validation_error');
  assert.match((word.confirmation as string[])[0]!, /invalid/);
  expectError(await del({ password: u.password }), 400, 'validation_error');
  assert.equal((await app.inject({ url: '/api/auth/profile/', headers: bearer(u.access) })).statusCode, 200);
});

for (const word of ['SUPPRIMER', 'delete', 'حذف']) {
  test(`deleting with "${word}" removes every row and file of the user, and only theirs`, async (t) => {
    const { app, dir } = await createTestApp(t);
    const u = await approvedUser(app, { email: 'leaving@example.org' });
    const stay = await approvedUser(app, { email: 'staying@example.org' });
    await uploadAvatar(app, u.access);
    await app.inject({ method: 'POST', url: '/api/auth/token/refresh/', payload: { refresh: u.refresh } });
    await login(app, u.email, u.password);
    await app.inject({
      method: 'POST',
      url: '/api/feedback/',
      headers: bearer(u.access),
      payload: { type: 'bug', message: 'it broke' },
    });
    await app.inject({ method: 'POST', url: '/api/auth/password-reset/', payload: { email: u.email } });
    const now = '2026-03-01T09:00:00.000Z';
    await app.deps.db
      .insertInto('alignments')
      .values({
        id: 'al-1',
        user_id: u.id,
        project_id: null,
        title: 't',
        language: 'ara',
        detected_language: null,
        status: 'completed',
        duration: 3,
        confidence: null,
        wer: 0.1,
        cer: null,
        words: 3,
        coverage: null,
        processing_time: null,
        file_name: 'x.wav',
        file_size: 1,
        created_at: now,
        updated_at: now,
        completed_at: now,
      })
      .execute();
    const before = await rowsOf(app.deps.db, u.id, u.email);
    for (const [k, v] of Object.entries(before)) assert.ok(v > 0, `fixture has no ${k} rows`);
    assert.ok(existsSync(join(dir, 'files/users', u.id)));

    const res = await app.inject({
      method: 'DELETE',
      url: '/api/auth/account/',
      headers: bearer(u.access),
      payload: { password: u.password, confirmation: word },
    });
    assert.equal(res.statusCode, 200, res.body);
    const after = await rowsOf(app.deps.db, u.id, u.email);
    assert.deepEqual(after, {
      users: 0,
      sessions: 0,
      preferences: 0,
      feedback: 0,
      alignments: 0,
      password_resets: 0,
      outbox: 0,
      used_refresh_tokens: 0,
    });
    assert.equal(existsSync(join(dir, 'files/users', u.id)), false);
    expectError(
      await app.inject({ url: '/api/auth/profile/', headers: bearer(u.access) }),
      401,
      'token_invalid',
    );
    expectError(await login(app, u.email, u.password), 401, 'invalid_credentials');
    // The other account is untouched.
    assert.equal(
      (await app.inject({ url: '/api/auth/profile/', headers: bearer(stay.access) })).statusCode,
      200,
    );
    assert.equal((await rowsOf(app.deps.db, stay.id, stay.email)).users, 1);
  });
}

test('a waitlisted user can export and delete their data too', async (t) => {
  const { app } = await createTestApp(t);
  const u = await registerUser(app);
  assert.equal((await app.inject({ url: '/api/auth/export/', headers: bearer(u.access) })).statusCode, 200);
  const res = await app.inject({
    method: 'DELETE',
    url: '/api/auth/account/',
    headers: bearer(u.access),
    payload: { password: u.password, confirmation: 'DELETE' },
  });
  assert.equal(res.statusCode, 200);
});

test('the personal data export is a zip of the user’s rows and files', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  await uploadAvatar(app, u.access);
  await app.inject({
    method: 'POST',
    url: '/api/feedback/',
    headers: bearer(u.access),
    payload: { type: 'suggestion', subject: 'Dark mode', message: 'More contrast please' },
  });
  const post = (url: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url, headers: bearer(u.access), payload });
  const project = (await post('/api/projects/', { name: 'Fieldwork', description: 'Tunis 2026' })).json();
  const token = (await post('/api/auth/tokens/', { name: 'corpus script' })).json();
  assert.equal(
    (await post('/api/lexicon/', { language: 'eng', word: 'Tazamun', ipa: 'tazaːmun' })).statusCode,
    201,
  );
  const res = await app.inject({ url: '/api/auth/export/', headers: bearer(u.access) });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/zip');
  assert.match(
    String(res.headers['content-disposition']),
    /attachment; filename="tazamun-export-2026-03-01\.zip"/,
  );
  const zip = readZip(res.rawPayload);
  const names = [...zip.keys()].sort();
  assert.deepEqual(
    names.filter((n) => !n.startsWith('files/')),
    [
      'alignments.json',
      'api-tokens.json',
      'feedback.json',
      'lexicon.json',
      'models.json',
      'preferences.json',
      'profile.json',
      'projects.json',
      'revisions.json',
      'sessions.json',
      'shares.json',
    ],
  );
  assert.ok(
    names.some((n) => /^files\/avatar\/[a-f0-9]{24}\.webp$/.test(n)),
    names.join(','),
  );
  const profile = JSON.parse(zip.get('profile.json')!.toString());
  assert.equal(profile.email, u.email);
  assert.equal(JSON.stringify(profile).includes('argon2'), false, 'no password hash in the export');
  assert.equal(JSON.parse(zip.get('feedback.json')!.toString())[0].subject, 'Dark mode');
  assert.equal(JSON.parse(zip.get('sessions.json')!.toString())[0].current, true);
  assert.deepEqual(JSON.parse(zip.get('alignments.json')!.toString()), []);
  const projects = JSON.parse(zip.get('projects.json')!.toString());
  assert.deepEqual(
    projects.map((p: { id: string; name: string; description: string }) => [p.id, p.name, p.description]),
    [[project.id, 'Fieldwork', 'Tunis 2026']],
  );
  const tokens = JSON.parse(zip.get('api-tokens.json')!.toString());
  assert.deepEqual(
    tokens.map((x: { name: string; prefix: string }) => [x.name, x.prefix]),
    [['corpus script', token.prefix]],
  );
  assert.equal(res.rawPayload.includes(Buffer.from(token.token.slice(4))), false, 'no token secret');
  const lexicon = JSON.parse(zip.get('lexicon.json')!.toString());
  assert.deepEqual(
    lexicon.map((e: { language: string; word: string; ipa: string }) => [e.language, e.word, e.ipa]),
    [['eng', 'tazamun', 'tazaːmun']],
  );
  assert.deepEqual(JSON.parse(zip.get('revisions.json')!.toString()), []);
  assert.deepEqual(JSON.parse(zip.get('shares.json')!.toString()), []);
  assert.deepEqual(JSON.parse(zip.get('models.json')!.toString()), []);
});

test('password reset: always 200, mails a token, the token sets a new password once', async (t) => {
  const { app, clock } = await createTestApp(t);
  const u = await approvedUser(app);
  const unknown = await app.inject({
    method: 'POST',
    url: '/api/auth/password-reset/',
    payload: { email: 'nobody@example.org' },
  });
  const known = await app.inject({
    method: 'POST',
    url: '/api/auth/password-reset/',
    payload: { email: u.email.toUpperCase() },
  });
  assert.equal(unknown.statusCode, 200);
  assert.deepEqual(known.json(), unknown.json());
  const mails = await app.deps.db.selectFrom('email_outbox').selectAll().execute();
  assert.equal(mails.length, 1);
  assert.equal(mails[0]!.kind, 'password_reset');
  const token = /Reset token: (\S+)/.exec(mails[0]!.body)![1]!;
  assert.ok(mails[0]!.body.includes(`http://localhost:8080/auth?view=reset&token=${token}`));

  const confirm = (payload: object) =>
    app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm/', payload });
  const weak = expectError(
    await confirm({ token, new_password: '12345678', new_password_confirm: '12345678' }),
    400,
    'validation_error',
  );
  assert.ok((weak.new_password as string[]).some((m) => m.includes('numeric')));
  expectError(
    await confirm({
      token: 'forged',
      new_password: 'Quiet-River-2031',
      new_password_confirm: 'Quiet-River-2031',
    }),
    400,
    'reset_token_invalid',
  );
  const ok = await confirm({
    token,
    new_password: 'Quiet-River-2031',
    new_password_confirm: 'Quiet-River-2031',
  });
  assert.equal(ok.statusCode, 200, ok.body);
  expectError(
    await app.inject({ url: '/api/auth/profile/', headers: bearer(u.access) }),
    401,
    'token_invalid',
  );
  assert.equal((await login(app, u.email, 'Quiet-River-2031')).statusCode, 200);
  expectError(
    await confirm({ token, new_password: 'Other-River-2032', new_password_confirm: 'Other-River-2032' }),
    400,
    'reset_token_invalid',
  );

  await app.inject({ method: 'POST', url: '/api/auth/password-reset/', payload: { email: u.email } });
  const late = (
    await app.deps.db.selectFrom('email_outbox').selectAll().orderBy('created_at', 'desc').execute()
  )[0]!;
  const lateToken = /Reset token: (\S+)/.exec(late.body)![1]!;
  clock.advance(61 * 60_000);
  expectError(
    await confirm({
      token: lateToken,
      new_password: 'Other-River-2032',
      new_password_confirm: 'Other-River-2032',
    }),
    400,
    'reset_token_invalid',
  );
});
