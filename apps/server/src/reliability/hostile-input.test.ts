// Hostile input against the real app (run on SQLite and again on PostgreSQL by npm test): broken and
// oversized multipart bodies, files that lie about being audio, huge or poisoned transcripts, NUL and
// bidi controls, traversal in file names, SQL-ish strings, forged tokens, other users' ids. Each gets a
// clear error in the contract's shape (or is stored harmlessly) and leaves stored data as it was.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { errorMessage } from '@tazamun/contracts/errors';
import { ErrorBody } from '@tazamun/contracts/error-body';
import type { ErrorCode } from '@tazamun/contracts/errors';
import { LIMITS } from '@tazamun/contracts/limits';
import { approvedUser, bearer, expectError, registerUser } from '@tazamun/server/testing/test-app';
import {
  parseCsv,
  parseSrt,
  parseTextGrid,
  parseVtt,
  parseXml,
} from '@tazamun/aligner/testing/format-parsers';
import {
  createJobsTestApp,
  evalClip,
  multipart,
  upload,
  waitForStatus,
} from '@tazamun/server/testing/jobs-test-app';
import type { Part } from '@tazamun/server/testing/jobs-test-app';
import { wavHeader } from '@tazamun/aligner/audio';
import { pcmWav } from '@tazamun/server/testing/wav';

const TABLES = ['users', 'sessions', 'alignments', 'jobs', 'projects', 'shares', 'feedback'] as const;

/** Row counts of every user-facing table and the list of stored files: what must not change. */
async function snapshot(
  app: FastifyInstance,
  dataDir: string,
): Promise<{ rows: Record<string, number>; files: string[] }> {
  const rows: Record<string, number> = {};
  for (const t of TABLES) {
    const r = await app.deps.db
      .selectFrom(t as 'users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    rows[t] = Number(r.n);
  }
  const files: string[] = [];
  const walk = (d: string): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(`${relative(dataDir, p)}:${statSync(p).size}`);
    }
  };
  walk(join(dataDir, 'files'));
  return { rows, files: files.sort() };
}

/** A clear 4xx in the contract's error shape, never a 5xx. */
function clientError(res: LightMyRequestResponse): ReturnType<typeof ErrorBody.parse> {
  assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${res.statusCode} ${res.body.slice(0, 300)}`);
  const body = ErrorBody.parse(res.json());
  // the catalogue's English message for that code, its placeholders filled
  const template = errorMessage(body.code as ErrorCode, 'en');
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '.+');
  assert.match(body.detail, new RegExp(`^${pattern}$`), `${body.code}: ${body.detail}`);
  return body;
}

function wav(seconds = 0.5): Buffer {
  return pcmWav(seconds, (i) => 6000 * Math.sin(i / 5));
}

const audioPart = (content: Buffer, filename = 'clip.wav'): Part => ({
  name: 'audio',
  filename,
  content,
  contentType: 'audio/wav',
});

async function usedToday(app: FastifyInstance, userId: string): Promise<number> {
  const r = await app.deps.db
    .selectFrom('users')
    .select('used_today')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return r.used_today;
}

// Jobs do not run here: these tests are about what the HTTP layer accepts and stores.
const NO_WORKERS = { concurrency: 0 };

test('broken, oversized and mislabelled uploads are refused and store nothing', async (t) => {
  const { app, dir } = await createJobsTestApp(t, NO_WORKERS);
  const u = await approvedUser(app);
  const before = await snapshot(app, dir);
  const quota = await usedToday(app, u.id);

  // truncated: the body stops in the middle of the audio, without a closing boundary
  const good = multipart([
    { name: 'language', value: 'eng' },
    { name: 'text', value: 'hello' },
    audioPart(wav()),
  ]);
  const truncated = await app.inject({
    method: 'POST',
    url: '/api/alignments/',
    payload: good.payload.subarray(0, Math.floor(good.payload.length * 0.6)),
    headers: { ...good.headers, ...bearer(u.access) },
  });
  assert.equal(truncated.statusCode, 400, `truncated: ${truncated.body}`);
  clientError(truncated);

  // multipart without a boundary, and a body that is not multipart at all
  clientError(
    await app.inject({
      method: 'POST',
      url: '/api/alignments/',
      payload: 'x',
      headers: { 'content-type': 'multipart/form-data', ...bearer(u.access) },
    }),
  );
  clientError(
    await app.inject({
      method: 'POST',
      url: '/api/alignments/',
      payload: { language: 'eng', text: 'x' },
      headers: bearer(u.access),
    }),
  );

  // one byte over the audio limit
  const big = Buffer.concat([
    wavHeader(LIMITS.audioMaxBytes, 16_000),
    Buffer.alloc(LIMITS.audioMaxBytes - 43),
  ]);
  const tooBig = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: 'hi' },
    audioPart(big),
  ]);
  assert.equal(clientError(tooBig).code, 'audio_too_large');

  // not audio, whatever the name says: a zip, a PNG, an HTML page with a script
  const zip = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(4000, 0x41)]);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(2000),
  ]);
  const html = Buffer.from('<html><script>alert(document.cookie)</script></html>'.repeat(50));
  for (const [content, name] of [
    [zip, 'song.mp3'],
    [png, 'voice.wav'],
    [html, 'speech.ogg'],
  ] as const) {
    const res = await upload(app, u.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: 'hi' },
      audioPart(content, name),
    ]);
    clientError(res);
  }

  // a bomb-like WAV: its header promises 4 GB (about 37 hours) but carries 2 KB
  const liar = Buffer.concat([wavHeader(0xffffffff - 44, 16_000), Buffer.alloc(2048, 1)]);
  const lied = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: 'hi' },
    audioPart(liar),
  ]);
  if (lied.statusCode === 202) {
    // accepted by what it really holds: its stored size is what was sent, not what the header claimed
    const row = lied.json() as { id: string; file_size?: number };
    assert.ok(row.id);
    await app.inject({ method: 'DELETE', url: `/api/alignments/${row.id}/`, headers: bearer(u.access) });
  } else clientError(lied);

  // a transcript field larger than a form field may be (the text_file part is the way for long text)
  const hugeField = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: 'ك'.repeat(3 * 1024 * 1024) },
    audioPart(wav()),
  ]);
  clientError(hugeField);

  const after = await snapshot(app, dir);
  assert.deepEqual(after.rows, before.rows);
  assert.deepEqual(after.files, before.files);
  assert.equal(await usedToday(app, u.id), quota, 'no quota used by refused uploads');
});

test('5 MB of one Arabic word, path traversal, NUL and bidi controls in an upload', async (t) => {
  const { app, dir } = await createJobsTestApp(t, NO_WORKERS);
  const u = await approvedUser(app);
  const passwd = readFileSync('/etc/passwd', 'utf8');

  // one 5 MB "word" as a text file: just over the size limit is refused for its size; just under it,
  // for what it would cost (no audio can hold 1.3 million letters: job bounds, issue 11)
  const word = 'كلمة';
  const perWord = Buffer.byteLength(word);
  const under = Buffer.from(word.repeat(Math.floor((LIMITS.textFileMaxBytes - 16) / perWord)));
  const over = Buffer.from(word.repeat(Math.floor(LIMITS.textFileMaxBytes / perWord) + 1));
  const before = await snapshot(app, dir);
  const refused = await upload(app, u.access, [
    { name: 'language', value: 'ara' },
    { name: 'text_file', filename: 't.txt', content: over, contentType: 'text/plain' },
    audioPart(wav()),
  ]);
  clientError(refused);
  assert.deepEqual(await snapshot(app, dir), before);
  assert.equal(clientError(refused).code, 'text_too_large');
  const bounded = await upload(app, u.access, [
    { name: 'language', value: 'ara' },
    { name: 'text_file', filename: 't.txt', content: under, contentType: 'text/plain' },
    audioPart(wav()),
  ]);
  assert.equal(clientError(bounded).code, 'transcript_too_long');
  assert.deepEqual(await snapshot(app, dir), before);

  // a file name that climbs out of the data directory, a title with NUL and a right-to-left override
  const res = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'title', value: 'report\u202Eexe.wav\u0000' },
    { name: 'text', value: 'hello\u0000 world \u202Egnirts\u202C' },
    audioPart(wav(), '../../../../../etc/passwd\u0000.wav'),
  ]);
  if (res.statusCode === 202) {
    const row = res.json() as { id: string; title: string | null; file_name: string | null };
    assert.ok(!(row.title ?? '').includes('\u0000'));
    // whatever the name was, every stored file sits inside this user's own folder
    for (const f of (await snapshot(app, dir)).files)
      assert.ok(f.startsWith(join('files', 'users', u.id) + '/'), f);
    const detail = await app.inject({ url: `/api/alignments/${row.id}/`, headers: bearer(u.access) });
    assert.equal(detail.statusCode, 200);
  } else clientError(res);
  assert.equal(
    readFileSync('/etc/passwd', 'utf8'),
    passwd,
    'a name climbing out of the folder wrote nothing there',
  );
});

test('NUL, bidi overrides and SQL-ish strings in JSON bodies and queries', async (t) => {
  const { app, dir } = await createJobsTestApp(t, NO_WORKERS);
  const u = await approvedUser(app);
  const other = await approvedUser(app);
  const before = await snapshot(app, dir);

  // NUL is refused as a field error wherever it appears
  const nulName = await app.inject({
    method: 'PATCH',
    url: '/api/auth/profile/',
    headers: bearer(u.access),
    payload: { first_name: 'Am\u0000ina' },
  });
  const body = expectError(nulName, 400, 'validation_error');
  assert.ok(Array.isArray(body.first_name));
  expectError(
    await app.inject({
      method: 'POST',
      url: '/api/auth/register/',
      payload: {
        first_name: 'x',
        last_name: 'y',
        email: 'n\u0000@example.org',
        password: 'p',
        password_confirm: 'p',
      },
    }),
    400,
    'validation_error',
  );
  expectError(
    await app.inject({ url: '/api/alignments/?q=a%00b', headers: bearer(u.access) }),
    400,
    'validation_error',
  );
  expectError(
    await app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { email: `${u.email}\u0000`, password: u.password },
    }),
    400,
    'validation_error',
  );
  assert.deepEqual(await snapshot(app, dir), before);

  // SQL-ish text is data: stored and read back verbatim, never executed
  const sqlish = `Robert'); DROP TABLE users; -- "x" \\ %_`;
  const project = await app.inject({
    method: 'POST',
    url: '/api/projects/',
    headers: bearer(u.access),
    payload: { name: sqlish, description: "' OR '1'='1" },
  });
  assert.equal(project.statusCode, 201, project.body);
  assert.equal(project.json().name, sqlish);
  const listed = await app.inject({ url: '/api/projects/', headers: bearer(u.access) });
  assert.ok(JSON.stringify(listed.json()).includes('DROP TABLE users'));
  // LIKE wildcards and quotes in a search match literally: nothing of another user's, nothing at all here
  for (const q of ["%' OR 1=1 --", '%', '_', "'; DELETE FROM alignments; --"]) {
    const r = await app.inject({
      url: `/api/alignments/?q=${encodeURIComponent(q)}`,
      headers: bearer(other.access),
    });
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.json().count, 0);
  }
  clientError(
    await app.inject({ url: "/api/alignments/?language=eng' OR '1'='1", headers: bearer(u.access) }),
  );
  clientError(await app.inject({ url: "/api/alignments/1' OR '1'='1/", headers: bearer(u.access) }));
  // the users table is still there with both users
  const users = await app.deps.db.selectFrom('users').select('id').execute();
  assert.equal(users.length, 2);

  // bidi controls in a name are stored as given and come back as JSON, which escapes nothing it must not
  const bidi = await app.inject({
    method: 'PATCH',
    url: '/api/auth/profile/',
    headers: bearer(u.access),
    payload: { first_name: 'Amina\u202Etxt.exe' },
  });
  if (bidi.statusCode === 200)
    assert.equal(bidi.json().first_name ?? bidi.json().user?.first_name, 'Amina\u202Etxt.exe');
  else clientError(bidi);
});

test('tokens: wrong algorithm, refresh used as access, access used as refresh, deleted account', async (t) => {
  const { app, config } = await createJobsTestApp(t, NO_WORKERS);
  const u = await approvedUser(app);
  const secret = new TextEncoder().encode(config.jwtSecret!);
  const [, payload] = u.access.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
  // same claims, same secret, another HMAC: the verifier pins HS256
  const hs512 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(secret);
  expectError(await app.inject({ url: '/api/auth/profile/', headers: bearer(hs512) }), 401, 'token_invalid');
  expectError(
    await app.inject({ url: '/api/auth/profile/', headers: bearer(u.refresh) }),
    401,
    'token_invalid',
  );
  expectError(
    await app.inject({ method: 'POST', url: '/api/auth/token/refresh/', payload: { refresh: u.access } }),
    401,
    'token_invalid',
  );
  // the header carries an oversized token: refused, not parsed at length
  expectError(
    await app.inject({ url: '/api/auth/profile/', headers: bearer(`${'a'.repeat(6000)}.b.c`) }),
    401,
    'token_invalid',
  );

  const gone = await registerUser(app);
  await app.deps.db.deleteFrom('users').where('id', '=', gone.id).execute();
  expectError(
    await app.inject({ url: '/api/auth/profile/', headers: bearer(gone.access) }),
    401,
    'token_invalid',
  );
});

test("another user's ids answer 404 on every route that takes one", async (t) => {
  const { app, dir } = await createJobsTestApp(t, NO_WORKERS);
  const owner = await approvedUser(app);
  const other = await approvedUser(app);
  const up = await upload(app, owner.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: evalClip().text },
    audioPart(readFileSync(evalClip().wav)),
  ]);
  assert.equal(up.statusCode, 202, up.body);
  const id = up.json().id as string;
  const project = await app.inject({
    method: 'POST',
    url: '/api/projects/',
    headers: bearer(owner.access),
    payload: { name: 'Mine' },
  });
  const pid = project.json().id as string;
  const before = await snapshot(app, dir);
  const routes: [string, string, unknown?][] = [
    ['GET', `/api/alignments/${id}/`],
    ['PATCH', `/api/alignments/${id}/`, { title: 'stolen' }],
    ['DELETE', `/api/alignments/${id}/`],
    ['GET', `/api/alignments/${id}/progress/`],
    ['GET', `/api/alignments/${id}/events/`],
    ['POST', `/api/alignments/${id}/cancel/`],
    ['GET', `/api/alignments/${id}/audio/`],
    ['GET', `/api/alignments/${id}/export/json/`],
    ['GET', `/api/alignments/${id}/export/textgrid/`],
    ['POST', `/api/alignments/${id}/video/`, {}],
    ['GET', `/api/alignments/${id}/video/`],
    ['GET', `/api/alignments/${id}/video/file/`],
    ['POST', `/api/alignments/${id}/share/`],
    ['GET', `/api/alignments/${id}/share/`],
    ['DELETE', `/api/alignments/${id}/share/`],
    ['GET', `/api/projects/${pid}/`],
    ['PATCH', `/api/projects/${pid}/`, { name: 'stolen' }],
    ['DELETE', `/api/projects/${pid}/`],
    ['POST', `/api/projects/${pid}/alignments/`, { alignment_ids: [id] }],
  ];
  for (const [method, url, payload] of routes) {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: bearer(other.access),
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    assert.equal(res.statusCode, 404, `${method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    assert.equal(ErrorBody.parse(res.json()).code, 'not_found');
  }
  assert.deepEqual(await snapshot(app, dir), before);
});

test('markup, quotes and bidi controls in a transcript leave every export well-formed', async (t) => {
  const { app } = await createJobsTestApp(t, { concurrency: 1 });
  const u = await approvedUser(app);
  const clip = evalClip();
  const hostile = `${clip.text} <script>alert(1)</script> "quoted" \u202Eevil\u202C =HYPERLINK("x") </cue>`;
  const res = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'title', value: '<img src=x onerror=alert(1)>' },
    { name: 'text', value: hostile },
    audioPart(readFileSync(clip.wav)),
  ]);
  assert.equal(res.statusCode, 202, res.body);
  const id = res.json().id as string;
  const end = await waitForStatus(app, u.access, id);
  assert.equal(end.status, 'completed', JSON.stringify(end));
  const get = async (format: string, qs = '') => {
    const r = await app.inject({
      url: `/api/alignments/${id}/export/${format}/?${qs}`,
      headers: bearer(u.access),
    });
    assert.equal(r.statusCode, 200, `${format}: ${r.body.slice(0, 200)}`);
    return r.body;
  };
  // XML: well-formed, and the markup is text, not elements
  const eaf = await get('eaf');
  const root = parseXml(eaf);
  const names: string[] = [];
  const walk = (e: { name: string; children?: unknown[] }): void => {
    names.push(e.name.toLowerCase());
    for (const c of e.children ?? []) if (c && typeof c === 'object' && 'name' in c) walk(c as typeof e);
  };
  walk(root as unknown as { name: string; children?: unknown[] });
  assert.ok(!names.includes('script') && !names.includes('img'), names.join(','));
  assert.ok(!eaf.includes('<script'));
  // WebVTT cue text is markup: no raw tag may survive, and no cue ends early
  const vtt = await get('vtt');
  assert.ok(!/<script|<\/cue>|<img/i.test(vtt), vtt);
  assert.ok(vtt.includes('&lt;script&gt;'), 'the words are kept, escaped');
  assert.ok(!vtt.includes('\u202E'), 'bidi overrides do not reach the captions');
  // every cue made, in WebVTT and SRT alike
  const cues = parseVtt(vtt);
  assert.match(cues.flatMap((c) => c.lines).join(' '), /&lt;\/cue&gt;$/, 'the last word is in the last cue');
  assert.equal(parseSrt(await get('srt')).length, cues.length);
  // TextGrid quotes are doubled: the file still parses into its tiers (the markup is not in the audio:
  // it is listed as not found)
  assert.deepEqual(
    parseTextGrid(await get('textgrid')).tiers.map((tier) => tier.name),
    ['words', 'phones', 'not found'],
  );
  const rows = parseCsv(await get('csv', 'separator=comma&headers=true'), ',');
  assert.ok(rows.length > 1);
  assert.ok(
    rows.every((r) => r.length === rows[0]!.length),
    'every CSV row has the same columns',
  );
});
