// Signed audio URLs: the owner gets one, it streams (with Range) without a header, and any change to
// it — another id, another signature, a missing part, time running out — is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { AudioUrlResponse } from '@tazamun/contracts/alignments';
import { approvedUser, bearer, expectError } from '@tazamun/server/testing/test-app';
import { AUDIO_URL_TTL_SECONDS } from './alignment-routes.ts';
import { createJobsTestApp, evalClip, upload, waitForStatus } from '@tazamun/server/testing/jobs-test-app';

test('signed audio URLs stream one alignment to whoever holds them, until they expire', async (t) => {
  const { app, clock } = await createJobsTestApp(t);
  const owner = await approvedUser(app);
  const other = await approvedUser(app);
  const clip = evalClip();
  const wav = readFileSync(clip.wav);
  const uploadAs = async (access: string) => {
    const res = await upload(app, access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: clip.text },
      { name: 'audio', filename: 'clip.wav', content: wav, contentType: 'audio/wav' },
    ]);
    assert.equal(res.statusCode, 202, res.body);
    const id = res.json().id as string;
    // Let the job finish so the app closes on an idle queue.
    await waitForStatus(app, access, id);
    return id;
  };
  const id = await uploadAs(owner.access);
  const othersId = await uploadAs(other.access);

  const res = await app.inject({ url: `/api/alignments/${id}/audio-url/`, headers: bearer(owner.access) });
  assert.equal(res.statusCode, 200, res.body);
  const signed = AudioUrlResponse.parse(res.json());
  const url = new URL(signed.url, 'http://api.test');
  assert.equal(url.pathname, `/api/alignments/${id}/audio/`);
  const sig = url.searchParams.get('sig')!;
  const exp = url.searchParams.get('exp')!;
  assert.ok(sig.length > 20);
  assert.equal(Number(exp) * 1000, Date.parse(signed.expires_at));
  const lifetime = Date.parse(signed.expires_at) - clock.now().getTime();
  assert.ok(lifetime > (AUDIO_URL_TTL_SECONDS - 1) * 1000 && lifetime <= AUDIO_URL_TTL_SECONDS * 1000);

  await t.test('only the owner can ask for a URL', async () => {
    expectError(
      await app.inject({ url: `/api/alignments/${id}/audio-url/`, headers: bearer(other.access) }),
      404,
      'not_found',
    );
    expectError(await app.inject({ url: `/api/alignments/${id}/audio-url/` }), 401, 'not_authenticated');
  });

  await t.test('the URL streams the file, with byte ranges, without a header', async () => {
    const full = await app.inject({ url: signed.url });
    assert.equal(full.statusCode, 200, full.body);
    assert.equal(full.headers['content-type'], 'audio/wav');
    assert.equal(full.headers['accept-ranges'], 'bytes');
    assert.ok(full.rawPayload.equals(wav));
    const part = await app.inject({ url: signed.url, headers: { range: 'bytes=100-199' } });
    assert.equal(part.statusCode, 206);
    assert.equal(part.headers['content-range'], `bytes 100-199/${wav.length}`);
    assert.ok(part.rawPayload.equals(wav.subarray(100, 200)));
  });

  await t.test('the Bearer owner still reads it without a signature', async () => {
    const res = await app.inject({ url: `/api/alignments/${id}/audio/`, headers: bearer(owner.access) });
    assert.equal(res.statusCode, 200);
    expectError(await app.inject({ url: `/api/alignments/${id}/audio/` }), 401, 'not_authenticated');
  });

  await t.test('a tampered, incomplete or transplanted signature is refused', async () => {
    const flipped = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    const refused = [
      `/api/alignments/${id}/audio/?sig=${flipped}&exp=${exp}`,
      `/api/alignments/${id}/audio/?sig=${sig}&exp=${Number(exp) + 3600}`,
      `/api/alignments/${id}/audio/?sig=${sig}`,
      `/api/alignments/${id}/audio/?exp=${exp}`,
      `/api/alignments/${id}/audio/?sig=&exp=${exp}`,
      `/api/alignments/${othersId}/audio/?sig=${sig}&exp=${exp}`,
      `/api/alignments/does-not-exist/audio/?sig=${sig}&exp=${exp}`,
    ];
    for (const u of refused) expectError(await app.inject({ url: u }), 401, 'token_invalid');
    // A signature does not stand in for a Bearer token on another user's alignment either.
    const otherUrl = await app.inject({
      url: `/api/alignments/${othersId}/audio-url/`,
      headers: bearer(other.access),
    });
    const otherSig = new URL(AudioUrlResponse.parse(otherUrl.json()).url, 'http://api.test').searchParams;
    expectError(
      await app.inject({
        url: `/api/alignments/${id}/audio/?sig=${otherSig.get('sig')}&exp=${otherSig.get('exp')}`,
      }),
      401,
      'token_invalid',
    );
  });

  await t.test('shared read-only links still stream publicly', async () => {
    const share = await app.inject({
      method: 'POST',
      url: `/api/alignments/${id}/share/`,
      headers: bearer(owner.access),
    });
    assert.equal(share.statusCode, 201, share.body);
    const audio = await app.inject({
      url: `/api/share/${share.json().token}/audio/`,
      headers: { range: 'bytes=0-3' },
    });
    assert.equal(audio.statusCode, 206);
    assert.equal(audio.rawPayload.toString('latin1'), 'RIFF');
  });

  await t.test('both routes are in the OpenAPI document', async () => {
    const doc = (await app.inject({ url: '/docs/json' })).json() as {
      paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
    };
    assert.ok(doc.paths['/api/alignments/{id}/audio-url/']?.get);
    const params = doc.paths['/api/alignments/{id}/audio/']?.get?.parameters ?? [];
    for (const name of ['sig', 'exp'])
      assert.ok(
        params.some((p) => p.name === name && p.in === 'query'),
        `${name} is documented`,
      );
  });

  await t.test('the URL stops working when it expires', async () => {
    clock.set(new Date(Number(exp) * 1000 - 1));
    assert.equal((await app.inject({ url: signed.url, headers: { range: 'bytes=0-3' } })).statusCode, 206);
    clock.set(new Date(Number(exp) * 1000));
    expectError(await app.inject({ url: signed.url }), 401, 'token_invalid');
  });
});
