// The bounds of one job (packages/contracts/src/job-bounds.ts) refuse an upload before the quota unit is
// taken: a transcript far longer than the audio, audio longer than MAX_AUDIO_DURATION, a sample rate
// below 8 kHz. Each answer is the catalogue's, localised, with the field named; nothing is stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { approvedUser, bearer, expectError } from '@tazamun/server/testing/test-app';
import { pcmWav } from '@tazamun/server/testing/wav';
import { createJobsTestApp, evalClip, multipart } from '@tazamun/server/testing/jobs-test-app';
import type { Part } from '@tazamun/server/testing/jobs-test-app';

test('uploads beyond the job bounds are refused before any quota unit is taken', async (t) => {
  // no worker thread: nothing here may reach the engine; a 2 s ceiling makes the clip's 3.4 s too long
  const { app, dir } = await createJobsTestApp(t, { concurrency: 0, maxAudioSeconds: 2 });
  const u = await approvedUser(app);
  const clip = evalClip();
  const send = (parts: Part[], lang = 'en') => {
    const { payload, headers } = multipart(parts);
    return app.inject({
      method: 'POST',
      url: '/api/alignments/',
      payload,
      headers: { ...headers, ...bearer(u.access), 'accept-language': lang },
    });
  };
  const used = async () =>
    (await app.inject({ url: '/api/auth/quota/', headers: bearer(u.access) })).json().quota
      .used_today as number;

  // 2 MB of transcript for a 2 s clip
  const short = pcmWav(2, (i) => Math.round(3000 * Math.sin(i / 7)));
  const big = 'word '.repeat(400_000);
  const tooLong = await send(
    [
      { name: 'language', value: 'eng' },
      { name: 'text', value: big },
      { name: 'audio', filename: 'short.wav', content: short },
    ],
    'fr',
  );
  const body = expectError(tooLong, 422, 'transcript_too_long');
  assert.equal(
    body.detail,
    "La transcription est bien plus longue que ce que l'audio peut contenir : 2 s d'audio contiennent au plus 70 mots et 420 caractères.",
  );
  assert.deepEqual(body.text, [
    'The transcript is far longer than the audio can hold: 2 s of audio fit at most 70 words and 420 characters.',
  ]);

  // the same as a text file
  const asFile = await send([
    { name: 'language', value: 'eng' },
    { name: 'text_file', filename: 't.txt', content: Buffer.from(big) },
    { name: 'audio', filename: 'short.wav', content: short },
  ]);
  expectError(asFile, 422, 'transcript_too_long');

  // a WAV at 1 Hz that claims one hour in 7 KB
  const oneHertz = pcmWav(3600, () => 0, 1);
  assert.equal(oneHertz.length, 7244);
  const slow = await send(
    [
      { name: 'language', value: 'eng' },
      { name: 'text', value: clip.text },
      { name: 'audio', filename: 'slow.wav', content: oneHertz },
    ],
    'ar',
  );
  const slowBody = expectError(slow, 422, 'audio_sample_rate_too_low');
  assert.equal(
    slowBody.detail,
    'معدل العيّنات في الصوت منخفض جدًا (1 هرتز)؛ يحتاج الكلام إلى 8000 هرتز على الأقل.',
  );
  assert.deepEqual(slowBody.audio, [
    "The audio's sample rate is too low (1 Hz); speech needs at least 8000 Hz.",
  ]);

  // longer than MAX_AUDIO_DURATION (2 s here)
  const long = await send([
    { name: 'language', value: 'eng' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'a.wav', content: readFileSync(clip.wav) },
  ]);
  const longBody = expectError(long, 422, 'audio_too_long');
  assert.equal(longBody.detail, 'The audio is too long (0:03); the maximum is 0:02.');

  assert.equal(await used(), 0, 'no refused upload took a unit');
  const db = app.deps.db;
  assert.deepEqual(await db.selectFrom('alignments').select('id').execute(), []);
  assert.deepEqual(await db.selectFrom('jobs').select('id').execute(), []);
  assert.deepEqual(readdirSync(join(dir, 'tmp')), [], 'no temp file left');

  // within the bounds the same user is accepted at once
  const ok = await send([
    { name: 'language', value: 'eng' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'short.wav', content: short },
  ]);
  assert.equal(ok.statusCode, 202, ok.body);
  assert.equal(await used(), 1);
});
