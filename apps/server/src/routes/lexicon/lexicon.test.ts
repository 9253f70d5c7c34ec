// The personal lexicon through the real app: entries kept per user and language, MFA dictionary import
// and export, and the aligner using an entry before the model's dictionary, saying so per word.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { ipaToModelPhones } from '@tazamun/aligner/pronunciation';
import { approvedUser, bearer, createTestApp, expectError } from '@tazamun/server/testing/test-app';
import { createJobsTestApp, evalClip, upload, waitForStatus } from '@tazamun/server/testing/jobs-test-app';

const add = (app: FastifyInstance, access: string, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/lexicon/', headers: bearer(access), payload });
const list = async (app: FastifyInstance, access: string, query = '') =>
  (await app.inject({ url: `/api/lexicon/${query}`, headers: bearer(access) })).json();

test('entries are per user and language, one per word, and removable', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const other = await approvedUser(app);
  const first = await add(app, u.access, { language: 'eng', word: 'Tazamun', ipa: 'tazaˈmun' });
  assert.equal(first.statusCode, 201, first.body);
  assert.deepEqual(
    { word: first.json().word, ipa: first.json().ipa, language: first.json().language },
    { word: 'tazamun', ipa: 'tazaˈmun', language: 'eng' },
  );
  // the same word again replaces its pronunciation
  const again = await add(app, u.access, { language: 'eng', word: 'TAZAMUN', ipa: 'təzɑːmʊn' });
  assert.equal(again.json().id, first.json().id);
  await add(app, u.access, { language: 'fra', word: 'tazamun', ipa: 'tazamun' });
  assert.deepEqual(
    (await list(app, u.access)).results.map((e: { language: string; ipa: string }) => [e.language, e.ipa]),
    [
      ['eng', 'təzɑːmʊn'],
      ['fra', 'tazamun'],
    ],
  );
  assert.equal((await list(app, u.access, '?language=fra')).count, 1);
  assert.equal((await list(app, other.access)).count, 0);

  const bad = expectError(
    await add(app, u.access, { language: 'english', word: 'two words', ipa: '' }),
    400,
    'validation_error',
  );
  assert.deepEqual(
    Object.keys(bad)
      .filter((k) => ['language', 'word', 'ipa'].includes(k))
      .sort(),
    ['ipa', 'language', 'word'],
  );
  expectError(await add(app, u.access, { language: 'eng', word: 'x', ipa: '!!' }), 400, 'validation_error');

  const id = first.json().id as string;
  expectError(
    await app.inject({ method: 'DELETE', url: `/api/lexicon/${id}/`, headers: bearer(other.access) }),
    404,
    'not_found',
  );
  assert.equal(
    (await app.inject({ method: 'DELETE', url: `/api/lexicon/${id}/`, headers: bearer(u.access) }))
      .statusCode,
    204,
  );
  assert.equal((await list(app, u.access, '?language=eng')).count, 0);
});

test('MFA dictionaries import and export', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const dict = [
    '# my corpus words',
    'tazamun\tt a z a m u n',
    'greasy\t0.99\t0.1\t1.0\t1.0\tɡ ɹ iː s i',
    'greasy\tɡ ɹ iː z i',
    'Lyon l j ɔ̃',
    'broken',
    '',
  ].join('\r\n');
  const res = await app.inject({
    method: 'POST',
    url: '/api/lexicon/import/?language=eng',
    headers: { ...bearer(u.access), 'content-type': 'text/tab-separated-values' },
    payload: dict,
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json(), {
    imported: 3,
    skipped: [
      { line: 4, reason: 'the word has a pronunciation on an earlier line; the first is kept' },
      { line: 6, reason: 'no pronunciation after the word' },
    ],
    skipped_count: 2,
  });
  const out = await app.inject({ url: '/api/lexicon/export/?language=eng', headers: bearer(u.access) });
  assert.equal(out.statusCode, 200);
  assert.match(String(out.headers['content-type']), /^text\/tab-separated-values/);
  assert.equal(out.body, 'greasy\tɡ ɹ iː s i\nlyon\tl j ɔ̃\ntazamun\tt a z a m u n\n');
  expectError(
    await app.inject({ url: '/api/lexicon/export/?language=en', headers: bearer(u.access) }),
    400,
    'validation_error',
  );
});

test('the aligner uses the lexicon before the model’s dictionary and says where each pronunciation came from', async (t) => {
  const { app } = await createJobsTestApp(t);
  const u = await approvedUser(app);
  const clip = evalClip(); // "She had your dark suit in greasy wash water all year."
  const own = 'ɡɹiːzi';
  const entry = (await add(app, u.access, { language: 'eng', word: 'greasy', ipa: own })).json();
  // another language's entry for a word of the text is not used
  await add(app, u.access, { language: 'fra', word: 'wash', ipa: 'vaʃ' });

  const alignOnce = async () => {
    const res = await upload(app, u.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: clip.text },
      { name: 'audio', filename: 'sa1.wav', content: (await import('node:fs')).readFileSync(clip.wav) },
    ]);
    assert.equal(res.statusCode, 202, res.body);
    const done = await waitForStatus(app, u.access, res.json().id);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const d = (
      await app.inject({ url: `/api/alignments/${res.json().id}/`, headers: bearer(u.access) })
    ).json();
    return d.result as {
      engine: { route: string };
      words: {
        word: string;
        pronunciation_source: string;
        phones: { phone: string; model_phone: string }[];
      }[];
    };
  };

  const withLexicon = await alignOnce();
  assert.deepEqual(
    withLexicon.words.map((w) => [w.word, w.pronunciation_source]),
    [
      ['She', 'model_dictionary'],
      ['had', 'model_dictionary'],
      ['your', 'model_dictionary'],
      ['dark', 'model_dictionary'],
      ['suit', 'model_dictionary'],
      ['in', 'model_dictionary'],
      ['greasy', 'user_lexicon'],
      ['wash', 'model_dictionary'],
      ['water', 'model_dictionary'],
      ['all', 'model_dictionary'],
      ['year.', 'model_dictionary'],
    ],
  );
  assert.equal(withLexicon.engine.route, 'dictionary+user-lexicon');
  const greasy = withLexicon.words[6]!;
  // the model aligned exactly the phones of the user's IPA; the phone tier shows that IPA
  assert.deepEqual(
    greasy.phones.map((p) => p.model_phone),
    ipaToModelPhones(own, 'en'),
  );

  // removed from the lexicon, the word goes back to the model's dictionary in the next job
  await app.inject({ method: 'DELETE', url: `/api/lexicon/${entry.id}/`, headers: bearer(u.access) });
  const without = await alignOnce();
  assert.equal(without.words[6]!.pronunciation_source, 'model_dictionary');
  assert.equal(without.engine.route, 'dictionary');
});

test('the preview lists the words pronounced by rule or eSpeak, leaving out the lexicon’s and the dictionary’s', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const preview = (payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/lexicon/preview/', headers: bearer(u.access), payload });
  const first = await preview({ language: 'eng', text: 'Tazamun aligns Zorblax and Zorblax again.' });
  assert.equal(first.statusCode, 200, first.body);
  assert.deepEqual(first.json(), {
    language: 'eng',
    words: [
      { word: 'tazamun', source: 'espeak', ipa: 't æ z ɐ m ʌ n' },
      { word: 'zorblax', source: 'espeak', ipa: 'z ɔːɹ b l æ k s' },
    ],
  });
  // once in the lexicon, a word is no longer one to check
  await add(app, u.access, { language: 'eng', word: 'tazamun', ipa: 'tazamun' });
  const second = await preview({ language: 'eng', text: 'Tazamun aligns Zorblax.' });
  assert.deepEqual(
    second.json().words.map((w: { word: string }) => w.word),
    ['zorblax'],
  );
  const ar = await preview({ language: 'ara', text: 'كَتَبَ' });
  assert.deepEqual(ar.json().words, [{ word: 'كَتَبَ', source: 'rules', ipa: 'k a t a b a' }]);
  expectError(await preview({ language: 'zzz', text: 'x' }), 400, 'language_unsupported');
  expectError(await preview({ language: 'eng', text: '' }), 400, 'validation_error');
});

test('the lexicon page’s preview: every word with its source, and what the aligner would use without the entries', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  await add(app, u.access, { language: 'eng', word: 'tazamun', ipa: 't a z a m aɪ n' });
  const preview = (payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/lexicon/preview/', headers: bearer(u.access), payload });
  const all = await preview({ language: 'eng', text: 'tazamun suit', all_words: true });
  assert.equal(all.statusCode, 200, all.body);
  assert.deepEqual(all.json().words, [
    { word: 'tazamun', source: 'user_lexicon', ipa: 't a z a m aɪ n' },
    // the model's dictionary, its ARPAbet written in IPA
    { word: 'suit', source: 'model_dictionary', ipa: 's u t' },
  ]);
  const without = await preview({ language: 'eng', text: 'tazamun', all_words: true, ignore_lexicon: true });
  assert.deepEqual(without.json().words, [{ word: 'tazamun', source: 'espeak', ipa: 't æ z ɐ m ʌ n' }]);
});

test('the MFA export keeps the diphthongs the alignment reads as one phone', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  // as the preview writes it (phones spaced), and as a person types it (no spaces)
  await add(app, u.access, { language: 'eng', word: 'tazamine', ipa: 't a z a m aɪ n' });
  await add(app, u.access, { language: 'eng', word: 'browne', ipa: 'bɹaʊn' });
  const out = await app.inject({ url: '/api/lexicon/export/?language=eng', headers: bearer(u.access) });
  assert.equal(out.body, 'browne\tb ɹ aʊ n\ntazamine\tt a z a m aɪ n\n');
  // and the import reads its own export back unchanged
  const u2 = await approvedUser(app);
  const imported = await app.inject({
    method: 'POST',
    url: '/api/lexicon/import/?language=eng',
    headers: { ...bearer(u2.access), 'content-type': 'text/tab-separated-values' },
    payload: out.body,
  });
  assert.equal(imported.statusCode, 200, imported.body);
  const again = await app.inject({ url: '/api/lexicon/export/?language=eng', headers: bearer(u2.access) });
  assert.equal(again.body, out.body);
});
