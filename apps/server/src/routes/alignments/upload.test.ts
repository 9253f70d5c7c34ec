// Uploads through the real HTTP app: the four formats made with ffmpeg at test time, bad files,
// transcript files, field validation, approval and the quota boundary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { approvedUser, bearer, expectError, registerUser } from '@tazamun/server/testing/test-app';
import {
  createJobsTestApp,
  EVAL_DIR,
  evalClip,
  ffmpeg,
  tempDir,
  upload,
  waitForStatus,
} from '@tazamun/server/testing/jobs-test-app';
import type { Part } from '@tazamun/server/testing/jobs-test-app';

const quota = async (app: FastifyInstance, access: string) =>
  (await app.inject({ url: '/api/auth/quota/', headers: bearer(access) })).json().quota as {
    used_today: number;
    remaining: number;
  };

test('MP3, WAV, M4A and OGG uploads are aligned', async (t) => {
  const { app } = await createJobsTestApp(t, { concurrency: 2 });
  const u = await approvedUser(app);
  const clip = evalClip();
  const dir = tempDir(t);
  const files: Record<string, string> = { wav: clip.wav };
  ffmpeg(['-i', clip.wav, '-c:a', 'libmp3lame', '-b:a', '64k', join(dir, 'a.mp3')]);
  ffmpeg(['-i', clip.wav, '-c:a', 'aac', '-b:a', '64k', join(dir, 'a.m4a')]);
  ffmpeg(['-i', clip.wav, '-c:a', 'libvorbis', join(dir, 'a.ogg')]);
  for (const f of ['mp3', 'm4a', 'ogg']) files[f] = join(dir, `a.${f}`);

  const ids: Record<string, string> = {};
  for (const [format, path] of Object.entries(files)) {
    // the name and the declared type say nothing true: the content decides
    const res = await upload(app, u.access, [
      {
        name: 'audio',
        filename: `recording-${format}.bin`,
        content: readFileSync(path),
        contentType: 'text/plain',
      },
      { name: 'language', value: 'eng' },
      { name: 'text', value: clip.text },
    ]);
    assert.equal(res.statusCode, 202, `${format}: ${res.body}`);
    ids[format] = res.json().id;
  }
  for (const [format, id] of Object.entries(ids)) {
    const done = await waitForStatus(app, u.access, id);
    assert.equal(done.status, 'completed', `${format}: ${JSON.stringify(done)}`);
    const d = (await app.inject({ url: `/api/alignments/${id}/`, headers: bearer(u.access) })).json();
    assert.equal(d.result.words.length, 11);
    assert.equal(d.result.metrics.coverage, 1, format);
    // lossy encoders pad a little; the duration stays that of the clip
    assert.ok(Math.abs(d.duration - clip.duration) < 0.1, `${format} duration ${d.duration}`);
    const audio = await app.inject({ url: `/api/alignments/${id}/audio/`, headers: bearer(u.access) });
    assert.equal(
      audio.headers['content-type'],
      { wav: 'audio/wav', mp3: 'audio/mpeg', m4a: 'audio/mp4', ogg: 'audio/ogg' }[format],
    );
  }
  assert.equal((await quota(app, u.access)).used_today, 4);
});

test('bad audio is refused by content, and refused uploads leave nothing behind', async (t) => {
  const { app, dir } = await createJobsTestApp(t);
  const u = await approvedUser(app);
  const clip = evalClip();
  const wav = readFileSync(clip.wav);
  const media = tempDir(t);
  ffmpeg(['-i', clip.wav, '-c:a', 'aac', join(media, 'a.m4a')]);
  const m4a = readFileSync(join(media, 'a.m4a'));
  const send = (content: Buffer, filename = 'x.mp3') =>
    upload(app, u.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: clip.text },
      { name: 'audio', filename, content, contentType: 'audio/mpeg' },
    ]);

  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(4000, 7),
  ]);
  const renamed = expectError(await send(png, 'song.mp3'), 415, 'audio_format_invalid');
  assert.match(String(renamed.detail), /MP3, WAV, M4A, OGG/);
  assert.ok(Array.isArray(renamed.audio));
  expectError(
    await send(Buffer.from('just some text, not audio at all\n'.repeat(50)), 'notes.wav'),
    415,
    'audio_format_invalid',
  );
  expectError(await send(Buffer.alloc(0), 'empty.wav'), 415, 'audio_format_invalid');
  // an M4A cut before its index: the magic bytes pass, ffprobe does not
  const cut = expectError(await send(m4a.subarray(0, 3000), 'cut.m4a'), 415, 'audio_undecodable');
  assert.equal(
    cut.detail,
    'The audio file cannot be decoded: it looks like M4A audio, but its content is damaged or incomplete.',
  );
  // a WAV cut after its header: readable, but 2 ms of audio
  expectError(await send(wav.subarray(0, 100), 'cut.wav'), 422, 'audio_unusable');
  // 51 MB: streamed, stopped at the 50 MB limit
  const big = Buffer.concat([wav.subarray(0, 44), Buffer.alloc(51 * 1024 * 1024 - 44)]);
  const tooBig = expectError(await send(big, 'big.wav'), 413, 'audio_too_large');
  assert.match(String(tooBig.detail), /50 MB/);

  assert.equal((await quota(app, u.access)).used_today, 0, 'no quota used by refused uploads');
  const folder = join(dir, 'files', 'users', u.id, 'alignments');
  assert.deepEqual(existsSync(folder) ? readdirSync(folder) : [], []);
  const rows = await app.deps.db.selectFrom('alignments').select('id').execute();
  assert.equal(rows.length, 0);
});

test('verdicts in a row: digital silence and a pure tone complete as no_speech, a correct transcript is good, a swapped one mismatch; each takes one quota unit', async (t) => {
  const { app } = await createJobsTestApp(t);
  const u = await approvedUser(app);
  const media = tempDir(t);
  ffmpeg(['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '2', join(media, 'silence.wav')]);
  ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=16000', '-t', '3', join(media, 'tone.wav')]);
  const clip = evalClip();
  // another TIMIT speaker's sentence: the words are not in this recording
  const other = JSON.parse(readFileSync(join(EVAL_DIR, 'timit-dev/dr3-madc0_si1367.json'), 'utf8')) as {
    text: string;
  };
  const cases: [string, string, string, string][] = [
    ['silence.wav', join(media, 'silence.wav'), 'nothing to hear', 'no_speech'],
    ['tone.wav', join(media, 'tone.wav'), clip.text, 'no_speech'],
    ['own.wav', clip.wav, clip.text, 'good'],
    ['swapped.wav', clip.wav, other.text, 'mismatch'],
  ];
  let used = 0;
  for (const [name, path, text, verdict] of cases) {
    const res = await upload(app, u.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: text },
      { name: 'audio', filename: name, content: readFileSync(path) },
    ]);
    assert.equal(res.statusCode, 202, res.body);
    used++;
    assert.equal((await waitForStatus(app, u.access, res.json().id)).status, 'completed', name);
    const done = (
      await app.inject({ url: `/api/alignments/${res.json().id}/`, headers: bearer(u.access) })
    ).json() as {
      status: string;
      verdict: string | null;
      result: { quality: { verdict: string; reasons: { code: string }[] }; words: { status: string }[] };
    };
    // the job completes whatever the verdict: the alignment was done
    assert.equal(done.status, 'completed', name);
    assert.equal(done.verdict, verdict, name);
    assert.equal(done.result.quality.verdict, verdict, name);
    if (verdict === 'no_speech') {
      assert.deepEqual(
        done.result.quality.reasons.map((r) => r.code),
        ['no_speech'],
        name,
      );
    }
    if (verdict === 'mismatch')
      assert.ok(
        done.result.quality.reasons.some((r) => r.code === 'transcript_mismatch'),
        name,
      );
    assert.equal((await quota(app, u.access)).used_today, used);
  }
  // the list shows each verdict without the result file (order by name: the test clock may not move)
  const list = (
    await app.inject({ url: '/api/alignments/?ordering=title', headers: bearer(u.access) })
  ).json().results as { verdict: string; file_name: string }[];
  assert.deepEqual(
    list.map((a) => [a.file_name, a.verdict]),
    cases.map(([name, , , v]) => [name, v]).sort((a, b) => a[0]!.localeCompare(b[0]!)),
  );
});

test('transcripts: text files with BOM and CRLF, invalid UTF-8, size limit; field validation', async (t) => {
  const { app } = await createJobsTestApp(t, { concurrency: 0 });
  const u = await approvedUser(app);
  const clip = evalClip();
  const wav = readFileSync(clip.wav);
  const audio: Part = { name: 'audio', filename: 'a.wav', content: wav };
  const lang: Part = { name: 'language', value: 'eng' };

  const crlf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('She had your\r\ndark suit\r\n')]);
  const ok = await upload(app, u.access, [
    lang,
    { name: 'text_file', filename: 't.txt', content: crlf },
    audio,
  ]);
  assert.equal(ok.statusCode, 202, ok.body);
  const d = (await app.inject({ url: `/api/alignments/${ok.json().id}/`, headers: bearer(u.access) })).json();
  assert.equal(d.original_text, 'She had your\ndark suit\n');

  const latin1 = Buffer.from('caf\xe9 cr\xe8me', 'latin1');
  expectError(
    await upload(app, u.access, [lang, { name: 'text_file', filename: 't.txt', content: latin1 }, audio]),
    400,
    'text_encoding_invalid',
  );
  const huge = Buffer.alloc(5 * 1024 * 1024 + 10, 'a');
  expectError(
    await upload(app, u.access, [lang, { name: 'text_file', filename: 't.txt', content: huge }, audio]),
    413,
    'text_too_large',
  );
  expectError(await upload(app, u.access, [lang, audio]), 400, 'text_required');
  expectError(
    await upload(app, u.access, [lang, { name: 'text', value: '  \n ' }, audio]),
    400,
    'text_required',
  );
  expectError(await upload(app, u.access, [lang, { name: 'text', value: 'x' }]), 400, 'audio_required');
  const text: Part = { name: 'text', value: clip.text };
  expectError(await upload(app, u.access, [text, audio]), 400, 'language_required');
  for (const bad of ['e', 'ENG', 'engl', 'e1g', 'e-'])
    expectError(
      await upload(app, u.access, [{ name: 'language', value: bad }, text, audio]),
      400,
      'language_invalid',
    );
  expectError(
    await upload(app, u.access, [{ name: 'language', value: 'qqq' }, text, audio]),
    400,
    'language_unsupported',
  );
  // Achinese: an IPA transcript is accepted with any ISO 639-3 code; written, it needs a route (or MMS).
  const ace: Part = { name: 'language', value: 'ace' };
  const ipa = await upload(app, u.access, [ace, { name: 'input_kind', value: 'ipa' }, text, audio]);
  assert.equal(ipa.statusCode, 202, ipa.body);
  assert.equal(
    (await app.inject({ url: `/api/alignments/${ipa.json().id}/`, headers: bearer(u.access) })).json()
      .language,
    'ace',
  );
  const models = process.env.TAZAMUN_MODELS_DIR;
  process.env.TAZAMUN_MODELS_DIR = tempDir(t); // no MMS model there
  try {
    expectError(await upload(app, u.access, [ace, text, audio]), 400, 'language_unsupported');
  } finally {
    if (models === undefined) delete process.env.TAZAMUN_MODELS_DIR;
    else process.env.TAZAMUN_MODELS_DIR = models;
  }
  const v = expectError(
    await upload(app, u.access, [
      lang,
      text,
      audio,
      { name: 'precision', value: 'extreme' },
      { name: 'normalize', value: 'maybe' },
    ]),
    400,
    'validation_error',
  );
  assert.ok(Array.isArray(v.precision) && Array.isArray(v.normalize), JSON.stringify(v));
  const json = await app.inject({
    method: 'POST',
    url: '/api/alignments/',
    headers: bearer(u.access),
    payload: { language: 'eng' },
  });
  expectError(json, 400, 'bad_request');
  assert.equal((await quota(app, u.access)).used_today, 2, 'only the two accepted uploads used quota');
});

test('approval and the quota boundary', async (t) => {
  const { app } = await createJobsTestApp(t, { concurrency: 0 });
  const clip = evalClip();
  const parts = (): Part[] => [
    { name: 'language', value: 'eng' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
  ];
  const pending = await registerUser(app);
  expectError(await upload(app, pending.access, parts()), 403, 'awaiting_approval');
  expectError(await app.inject({ url: '/api/alignments/' }), 401, 'not_authenticated');

  const u = await approvedUser(app);
  await app.deps.db.updateTable('users').set({ daily_limit: 2 }).where('id', '=', u.id).execute();
  assert.equal((await upload(app, u.access, parts())).statusCode, 202);
  assert.equal((await upload(app, u.access, parts())).statusCode, 202);
  const over = expectError(await upload(app, u.access, parts()), 429, 'quota_exhausted');
  assert.match(String(over.detail), /2 alignments per day/);
  assert.equal((await quota(app, u.access)).remaining, 0);
});

test('a failure that is not the user’s (time-out) gives the quota unit back', async (t) => {
  // 1 ms for any job: the engine cannot finish, as on an overloaded server
  const { app } = await createJobsTestApp(t, { timeoutBaseMs: 1, timeoutPerAudioSecond: 0 });
  const u = await approvedUser(app);
  const clip = evalClip();
  const res = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
  ]);
  assert.equal(res.statusCode, 202);
  assert.equal((await quota(app, u.access)).used_today, 1, 'used when accepted');
  const done = (await waitForStatus(app, u.access, res.json().id)) as {
    status: string;
    error: Record<string, unknown>;
  };
  assert.equal(done.status, 'failed');
  assert.equal(done.error.code, 'timeout');
  assert.equal(done.error.detail, 'Processing took too long. Try with a shorter file.');
  assert.equal(done.error.quota_refunded, true);
  assert.equal((await quota(app, u.access)).used_today, 0, 'given back');
});
