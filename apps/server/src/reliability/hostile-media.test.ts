// The hostile-request catalogue, second round (issue 27), items 8, 11, 13 and 14, through the real app on
// a real database (SQLite, or PostgreSQL with TAZAMUN_TEST_DB=postgres) and the ffprobe/ffmpeg this
// machine uses: an ID3 + HLS polyglot that made ffmpeg read another local file, NUL in transcripts, a
// project export whose zip names and summary cells came from file names unescaped, and a float WAV of
// NaN or infinite samples "completed" with nothing aligned. Each refusal is free and stores nothing.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { approvedUser, bearer, createTestApp, expectError } from '@tazamun/server/testing/test-app';
import { completedAlignment } from '@tazamun/server/testing/completed-alignment';
import { createJobsTestApp, evalClip, ffmpeg, tempDir, upload } from '@tazamun/server/testing/jobs-test-app';
import type { Part } from '@tazamun/server/testing/jobs-test-app';
import { floatWav, pcmWav } from '@tazamun/server/testing/wav';
import { readZip } from '@tazamun/server/testing/zip-reader';
import { readFileSync } from 'node:fs';

function storedFiles(dir: string): string[] {
  const out: string[] = [];
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
      else out.push(`${relative(dir, p)}:${statSync(p).size}`);
    }
  };
  walk(join(dir, 'files'));
  return out.sort();
}

async function nothingTaken(app: FastifyInstance, userId: string) {
  assert.equal((await app.deps.db.selectFrom('alignments').select('id').execute()).length, 0, 'no row');
  const u = await app.deps.db
    .selectFrom('users')
    .select('used_today')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  assert.equal(u.used_today, 0, 'no quota unit');
}

const audio = (content: Buffer, filename: string): Part => ({ name: 'audio', filename, content });

test('item 8: an ID3 + HLS polyglot is refused at upload (415), the file it points at is never read', async (t) => {
  const { app, dir } = await createJobsTestApp(t, { concurrency: 0 });
  const u = await approvedUser(app);
  // the file the playlist names: another user's recording, say (here a 2 s tone the test makes)
  const media = tempDir(t);
  const secret = join(media, 'someone-else.mp3');
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=2',
    '-ar',
    '16000',
    '-c:a',
    'libmp3lame',
    secret,
  ]);
  const playlist = Buffer.from(
    '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:0\n' +
      `#EXTINF:2.0,\nfile://${secret}\n#EXT-X-ENDLIST\n`,
  );
  const frame = Buffer.concat([
    Buffer.from('TIT2'),
    Buffer.from([0, 0, 0, 6, 0, 0, 0]),
    Buffer.from('title'),
  ]);
  const id3 = Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, 0, 0, 0, frame.length]), frame]);
  const before = storedFiles(dir);
  const res = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: 'a tone of someone else' },
    audio(Buffer.concat([id3, playlist]), 'song.mp3'),
  ]);
  const body = expectError(res, 415, 'audio_undecodable');
  assert.deepEqual(body.audio, ['This file cannot be decoded: its content is damaged or incomplete.']);
  assert.deepEqual(storedFiles(dir), before);
  await nothingTaken(app, u.id);
});

test('item 14: a float WAV of NaN or infinite samples is refused at upload (422), a finite one accepted', async (t) => {
  const { app, dir } = await createJobsTestApp(t, { concurrency: 0 });
  const u = await approvedUser(app);
  const send = (content: Buffer, lang = 'en') =>
    upload(app, u.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: 'nothing but numbers that are not' },
      audio(content, 'float.wav'),
    ]).then(async (r) => {
      void lang;
      return r;
    });
  const tone = (i: number) => 0.3 * Math.sin(i / 5);
  const cases: [string, Buffer][] = [
    ['all NaN, 32-bit', floatWav(1, () => NaN)],
    ['one +Infinity among a tone, 32-bit', floatWav(1, (i) => (i === 12_345 ? Infinity : tone(i)))],
    ['-Infinity, 64-bit', floatWav(1, (i) => (i === 7 ? -Infinity : tone(i)), 16_000, 64)],
    ['NaN at 44.1 kHz', floatWav(1, (i) => (i > 40_000 ? NaN : tone(i)), 44_100)],
  ];
  const before = storedFiles(dir);
  for (const [name, content] of cases) {
    const body = expectError(await send(content), 422, 'audio_samples_invalid');
    assert.equal(
      body.detail,
      'The audio holds samples that are not numbers (NaN or infinity): it can be neither played nor aligned. Export it again from your audio editor.',
      name,
    );
  }
  assert.deepEqual(storedFiles(dir), before);
  await nothingTaken(app, u.id);
  const fr = await app.inject({ url: '/api/auth/quota/', headers: bearer(u.access) });
  assert.equal(fr.json().quota.used_today, 0);
  // a float WAV of finite samples, and a plain 16-bit one, are accepted as before
  assert.equal((await send(floatWav(1, tone))).statusCode, 202);
  assert.equal((await send(floatWav(1, tone, 16_000, 64))).statusCode, 202);
  assert.equal((await send(pcmWav(1, (i) => 6000 * Math.sin(i / 5)))).statusCode, 202);
});

test('item 11: NUL in a transcript is refused (400, field named); other controls become spaces', async (t) => {
  const { app, dir } = await createJobsTestApp(t, { concurrency: 0 });
  const u = await approvedUser(app);
  const clip = evalClip();
  const wav = readFileSync(clip.wav);
  const before = storedFiles(dir);
  const viaField = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: 'she had\u0000 your dark suit' },
    audio(wav, 'sa1.wav'),
  ]);
  const body = expectError(viaField, 400, 'text_control_characters');
  assert.deepEqual(body.text, ['This value is invalid: it holds a NUL character.']);
  const viaFile = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'text_file', filename: 't.txt', content: Buffer.from('she had\u0000 your', 'utf8') },
    audio(wav, 'sa1.wav'),
  ]);
  assert.deepEqual(expectError(viaFile, 400, 'text_control_characters').text_file, [
    'This value is invalid: it holds a NUL character.',
  ]);
  // UTF-16 read as UTF-8 is the usual source: the message says what to do
  const utf16 = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'text_file', filename: 't.txt', content: Buffer.from(clip.text, 'utf16le') },
    audio(wav, 'sa1.wav'),
  ]);
  assert.match(String(expectError(utf16, 400, 'text_control_characters').detail), /save it as UTF-8/);
  assert.deepEqual(storedFiles(dir), before);
  await nothingTaken(app, u.id);
  // a form feed or an escape is a space, not a character inside a word
  const ok = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: clip.text.replace(' ', '\f').replace(' ', '\u001b') },
    audio(wav, 'sa1.wav'),
  ]);
  assert.equal(ok.statusCode, 202, ok.body);
  const row = await app.deps.db.selectFrom('alignments').selectAll().executeTakeFirstOrThrow();
  const stored = readFileSync(join(dir, 'files', 'users', u.id, row.text_file!), 'utf8');
  const controls = [...stored].filter((c) => c !== '\n' && c.charCodeAt(0) < 0x20);
  assert.deepEqual(controls, [], JSON.stringify(stored));
});

test('item 11: a result already holding NUL exports CSV without it', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const { id } = await completedAlignment(app, u.id, 'she had\u0000 your dark suit');
  const csv = await app.inject({ url: `/api/alignments/${id}/export/csv/`, headers: bearer(u.access) });
  assert.equal(csv.statusCode, 200);
  assert.ok(!csv.rawPayload.includes(0), 'no 0x00 byte');
});

test('item 13: project export names lose bidi overrides; summary.csv cells from file names are guarded', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const pid = (
    await app.inject({
      method: 'POST',
      url: '/api/projects/',
      headers: bearer(u.access),
      payload: { name: 'p' },
    })
  ).json().id as string;
  for (const name of [
    'spk\u202E0/utt\u202Egpj.wav',
    '+cmd.wav',
    '@SUM(1).wav',
    '=HYPERLINK("x").wav',
    '-2+3.wav',
  ])
    await completedAlignment(app, u.id, undefined, { file_name: name, project_id: pid });
  const res = await app.inject({ url: `/api/projects/${pid}/export/textgrid/`, headers: bearer(u.access) });
  assert.equal(res.statusCode, 200, res.body);
  const files = readZip(res.rawPayload);
  const names = [...files.keys()];
  for (const n of names) assert.ok(!/[\u202A-\u202E\u2066-\u2069\u200E\u200F]/.test(n), JSON.stringify(n));
  assert.ok(names.includes('spk0/uttgpj.TextGrid'), names.join(', '));
  const summary = files.get('summary.csv')!.toString('utf8').split('\r\n').filter(Boolean);
  assert.equal(summary[0], 'file,duration,words,coverage,confidence,wer');
  for (const line of summary.slice(1)) assert.ok(!/^[=+\-@]/.test(line), `a guarded first cell: ${line}`);
  // (quotes in a zip name become "_", as every character a file system may refuse)
  assert.ok(summary.includes("'=HYPERLINK(_x_).TextGrid,6.25,11,1,0.9,"), summary.join('\n'));
  assert.ok(
    summary.some((l) => l.startsWith("'+cmd.TextGrid,")),
    summary.join('\n'),
  );
});
