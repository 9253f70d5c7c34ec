// Corrections as revisions and re-aligned stretches, on one real alignment of a TIMIT sentence: saves,
// every validation refusal, stale and concurrent saves, exports of any revision, another user's 404,
// and the engine re-aligning a stretch while the words outside keep their times.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { parseTextGrid } from '@tazamun/aligner/testing/format-parsers';
import { AlignmentResult } from '@tazamun/contracts/alignment-result';
import type { WordTiming } from '@tazamun/contracts/alignment-result';
import { RealignStatus, RevisionCreated, RevisionList } from '@tazamun/contracts/revisions';
import { approvedUser, bearer, expectError } from '@tazamun/server/testing/test-app';
import { readZip } from '@tazamun/server/testing/zip-reader';
import { checkEpub } from '@tazamun/aligner/testing/epub-check';
import { createJobsTestApp, evalClip, upload, waitForStatus } from '@tazamun/server/testing/jobs-test-app';
import { until } from '@tazamun/server/testing/until';

const ms = (x: number): number => Math.round(x * 1000) / 1000;

async function detail(app: FastifyInstance, access: string, id: string, query = '') {
  const res = await app.inject({ url: `/api/alignments/${id}/${query}`, headers: bearer(access) });
  assert.equal(res.statusCode, 200, res.body);
  return AlignmentResult.parse(res.json().result);
}

function save(app: FastifyInstance, access: string, id: string, body: unknown, lang = 'en') {
  return app.inject({
    method: 'POST',
    url: `/api/alignments/${id}/revisions/`,
    payload: body as Record<string, unknown>,
    headers: { ...bearer(access), 'accept-language': lang },
  });
}

async function realignDone(app: FastifyInstance, access: string, id: string, requestId: string) {
  return until('the re-alignment to end', async () => {
    const res = await app.inject({ url: `/api/alignments/${id}/realign/`, headers: bearer(access) });
    assert.equal(res.statusCode, 200, res.body);
    const s = RealignStatus.parse(res.json());
    assert.equal(s.id, requestId, 'the latest request is the one just made');
    return s.status !== 'queued' && s.status !== 'processing' && s;
  });
}

/** Words with a time, as [index, start, end] triples, for comparing what a change kept. */
const times = (ws: WordTiming[]) => ws.map((w) => [w.index, w.word, w.start, w.end, w.phones.length]);

test('corrections are revisions: saved, checked, exported and re-aligned', async (t) => {
  const { app } = await createJobsTestApp(t);
  const owner = await approvedUser(app);
  const other = await approvedUser(app);
  const clip = evalClip();
  const res = await upload(app, owner.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'clip.wav', content: readFileSync(clip.wav), contentType: 'audio/wav' },
  ]);
  assert.equal(res.statusCode, 202, res.body);
  const id = res.json().id as string;
  const progress = await waitForStatus(app, owner.access, id);
  assert.equal(progress.status, 'completed', JSON.stringify(progress));

  const engine = await detail(app, owner.access, id);
  assert.deepEqual(engine.revision, {
    number: 1,
    author: 'engine',
    created_at: engine.revision!.created_at,
    hand_corrected: false,
  });
  const words = engine.words;
  assert.equal(words.length, 11);
  assert.ok(
    words.every((w) => w.status === 'aligned' && w.phones.length > 0),
    'the clip aligns whole',
  );

  const list1 = RevisionList.parse(
    (await app.inject({ url: `/api/alignments/${id}/revisions/`, headers: bearer(owner.access) })).json(),
  );
  assert.deepEqual(
    list1.map((r) => [r.revision, r.author, r.changed_words]),
    [[1, 'engine', []]],
  );

  // "dark" (index 3) ends earlier: its last phone follows, "suit" keeps its start.
  const dark = words[3]!;
  const lastPhone = dark.phones.at(-1)!;
  const newEnd = ms(dark.end! - Math.min(0.02, (lastPhone.end - lastPhone.start) / 2));
  const saved = await save(app, owner.access, id, {
    base_revision: 1,
    words: [
      { index: 3, end: newEnd },
      { index: 0, word: 'SHE' },
    ],
  });
  assert.equal(saved.statusCode, 201, saved.body);
  const rev2 = RevisionCreated.parse(saved.json());
  assert.equal(rev2.revision, 2);
  assert.equal(rev2.author, 'user');
  assert.deepEqual(rev2.changed_words, [0, 3]);
  assert.equal(rev2.result.words[3]!.end, newEnd);
  assert.equal(rev2.result.words[3]!.phones.at(-1)!.end, newEnd);
  assert.equal(rev2.result.words[3]!.duration, Math.round((newEnd - dark.start!) * 10000) / 10000);
  assert.equal(rev2.result.words[0]!.word, 'SHE');
  assert.deepEqual(rev2.result.words[4], words[4], 'the neighbour is untouched');
  assert.deepEqual(rev2.result.revision, {
    number: 2,
    author: 'user',
    created_at: rev2.created_at,
    hand_corrected: true,
  });

  await t.test('the detail shows the latest revision; ?revision= any earlier one', async () => {
    const latest = await detail(app, owner.access, id);
    assert.equal(latest.revision!.number, 2);
    assert.equal(latest.words[3]!.end, newEnd);
    const first = await detail(app, owner.access, id, '?revision=1');
    assert.deepEqual(first.words, words);
    const missing = await app.inject({
      url: `/api/alignments/${id}/?revision=3`,
      headers: bearer(owner.access),
    });
    expectError(missing, 404, 'not_found');
  });

  await t.test('a save on a stale base is refused with 409, in the caller’s language', async () => {
    const stale = await save(
      app,
      owner.access,
      id,
      { base_revision: 1, words: [{ index: 1, word: 'x' }] },
      'fr',
    );
    const body = expectError(stale, 409, 'revision_conflict');
    assert.equal(
      body.detail,
      'Cet alignement a été modifié entre-temps (il est maintenant à la révision 2). Rechargez-le et refaites vos modifications.',
    );
  });

  await t.test('invalid timings get 400 naming the word, and store nothing', async () => {
    const cases: [unknown, string, string][] = [
      [
        { words: [{ index: 5, end: engine.audio.duration + 1 }] },
        'word_outside_audio',
        `The word “in” (index 5) must lie inside the audio, between 0 and ${Math.round(engine.audio.duration * 10000) / 10000} s.`,
      ],
      [
        { words: [{ index: 5, start: words[5]!.end!, end: words[5]!.start! }] },
        'word_end_before_start',
        'The word “in” (index 5) must end after it starts.',
      ],
      [
        { words: [{ index: 4, start: ms(newEnd - 0.05) }] },
        'word_overlap',
        'The word “suit” (index 4) overlaps “dark”: words stay in order and must not overlap.',
      ],
      [
        { phones: [{ word_index: 1, index: 0, end: words[1]!.phones[0]!.start }] },
        'phone_invalid',
        `The phone “${words[1]!.phones[0]!.phone}” (index 0) of the word “had” (index 1) must end after it starts, stay inside its word and not overlap its neighbours.`,
      ],
    ];
    for (const [edit, code, detail] of cases) {
      const r = await save(app, owner.access, id, { base_revision: 2, ...(edit as object) });
      const body = expectError(r, 400, code);
      assert.equal(body.detail, detail);
      // the message and word_index count the same way: the word's index
      assert.match(String(body.detail), new RegExp(`\\(index ${String(body.word_index)}\\)`));
    }
    const unknown = await save(app, owner.access, id, { base_revision: 2, words: [{ index: 99, end: 1 }] });
    const body = expectError(unknown, 400, 'validation_error');
    assert.deepEqual(body.words, ['This value is invalid: no word has index 99.']);
    const list = (
      await app.inject({ url: `/api/alignments/${id}/revisions/`, headers: bearer(owner.access) })
    ).json() as unknown[];
    assert.equal(list.length, 2);
  });

  assert.equal(rev2.result.words[3]!.hand_corrected, true, 'a retimed word is marked corrected');
  assert.equal(rev2.result.words[0]!.hand_corrected, true, 'and so is a relabelled one');
  assert.equal(rev2.result.words[4]!.hand_corrected, undefined);

  await t.test('a phone split through word_phones is the next revision', async () => {
    const had = words[1]!;
    const p0 = had.phones[0]!;
    const mid = ms((p0.start + p0.end) / 2);
    const phones = [
      { phone: p0.phone, start: p0.start, end: mid },
      // a phone the model placed nothing for, as the result writes ʔ on the English model
      { phone: 'X', model_phone: '', approximated: true, start: mid, end: p0.end },
      ...had.phones.slice(1).map((p) => ({ phone: p.phone, start: p.start, end: p.end })),
    ];
    const r = await save(app, owner.access, id, {
      base_revision: 2,
      word_phones: [{ word_index: 1, phones }],
    });
    assert.equal(r.statusCode, 201, r.body);
    const rev3 = RevisionCreated.parse(r.json());
    assert.equal(rev3.revision, 3);
    assert.deepEqual(rev3.changed_words, [1]);
    assert.equal(rev3.result.words[1]!.phones.length, had.phones.length + 1);
    assert.equal(rev3.result.words[1]!.phones[1]!.phone, 'X');
    assert.equal(rev3.result.words[1]!.phones[1]!.model_phone, '');
    assert.equal(rev3.result.words[1]!.phones[1]!.approximated, true);
  });

  await t.test('exports: the latest by default, any revision on request, each saying which', async () => {
    const tg = await app.inject({
      url: `/api/alignments/${id}/export/textgrid/`,
      headers: bearer(owner.access),
    });
    assert.equal(tg.statusCode, 200, tg.body);
    assert.equal(tg.headers['x-tazamun-revision'], '3');
    assert.equal(tg.headers['x-tazamun-hand-corrected'], 'true');
    assert.match(tg.body, /^! Tazamun revision 3, corrected \(user\), /m);
    const wordTier = (body: string) => {
      const tier = parseTextGrid(body).tiers[0]!;
      assert.ok(tier.class === 'IntervalTier');
      return tier.intervals;
    };
    const ivs = wordTier(tg.body);
    assert.equal(ivs.find((iv) => iv.text === 'dark')!.xmax, newEnd);
    assert.equal(ivs.find((iv) => iv.text === 'suit')!.xmin, words[4]!.start);
    assert.equal(ivs.filter((iv) => iv.text === 'SHE').length, 1);

    const tg1 = await app.inject({
      url: `/api/alignments/${id}/export/textgrid/?revision=1`,
      headers: bearer(owner.access),
    });
    assert.equal(tg1.headers['x-tazamun-revision'], '1');
    assert.equal(tg1.headers['x-tazamun-hand-corrected'], 'false');
    assert.match(tg1.body, /^! Tazamun revision 1, engine result, not corrected, /m);
    assert.equal(
      wordTier(tg1.body).find((iv) => iv.text === 'dark')!.xmax,
      Math.round(dark.end! * 1e6) / 1e6,
    );

    const json = await app.inject({
      url: `/api/alignments/${id}/export/json/`,
      headers: bearer(owner.access),
    });
    assert.equal(JSON.parse(json.body).revision.number, 3);
    const vtt = await app.inject({ url: `/api/alignments/${id}/export/vtt/`, headers: bearer(owner.access) });
    assert.match(vtt.body, /^WEBVTT\n\nNOTE Tazamun revision 3, corrected \(user\), /);
    const eaf = await app.inject({ url: `/api/alignments/${id}/export/eaf/`, headers: bearer(owner.access) });
    assert.match(eaf.body, /<PROPERTY NAME="tazamun:revision">3<\/PROPERTY>/);
    assert.match(eaf.body, /<PROPERTY NAME="tazamun:hand_corrected">true<\/PROPERTY>/);
    // the EAF names the recording, so ELAN opens it with its audio
    assert.match(
      eaf.body,
      /<MEDIA_DESCRIPTOR MEDIA_URL="clip\.wav" MIME_TYPE="audio\/x-wav" RELATIVE_MEDIA_URL="\.\/clip\.wav"\/>/,
    );

    // the EPUB of any revision: its SMIL clips are that revision's word times
    for (const revision of [1, 3]) {
      const res = await app.inject({
        url: `/api/alignments/${id}/export/epub/?revision=${revision}`,
        headers: bearer(owner.access),
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/epub+zip');
      assert.match(String(res.headers['content-disposition']), /\.epub/);
      const epub = checkEpub(res.rawPayload);
      const result = await detail(app, owner.access, id, `?revision=${revision}`);
      assert.deepEqual(
        epub.pars.map((p) => [p.textId, p.clipBegin, p.clipEnd]),
        result.words.map((w) => [`w${w.index}`, w.start, w.end]),
      );
      assert.ok(
        epub.entries.some((e) => e.name === 'EPUB/audio.m4a'),
        'the WAV travels as AAC',
      );
    }
    const page = await app.inject({
      url: `/api/alignments/${id}/export/readalong/?revision=3&lang=fr`,
      headers: bearer(owner.access),
    });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(String(page.headers['content-disposition']), /^attachment;/);
    assert.match(page.body, /src="data:audio\/mp4;base64,/);
    assert.match(page.body, /Cliquez sur un mot/);
    assert.match(page.body, new RegExp(`data-e="${newEnd}">dark</span>`));

    const none = await app.inject({
      url: `/api/alignments/${id}/export/csv/?revision=9`,
      headers: bearer(owner.access),
    });
    expectError(none, 404, 'not_found');
  });

  await t.test('a share link shows the latest revision', async () => {
    const share = await app.inject({
      method: 'POST',
      url: `/api/alignments/${id}/share/`,
      headers: bearer(owner.access),
    });
    assert.ok(share.statusCode === 200 || share.statusCode === 201, share.body);
    const token = (share.json() as { token: string }).token;
    const pub = await app.inject({ url: `/api/share/${token}/` });
    assert.equal(pub.statusCode, 200, pub.body);
    assert.equal(pub.json().result.revision.number, 3);
    assert.equal(pub.json().result.words[3].end, newEnd);
  });

  await t.test('another user gets 404 on every revision route', async () => {
    for (const [method, url, payload] of [
      ['GET', `/api/alignments/${id}/revisions/`, undefined],
      ['POST', `/api/alignments/${id}/revisions/`, { base_revision: 3, words: [{ index: 0, word: 'x' }] }],
      ['POST', `/api/alignments/${id}/realign/`, { start: 0.5, end: 1 }],
      ['GET', `/api/alignments/${id}/realign/`, undefined],
      ['GET', `/api/alignments/${id}/export/textgrid/?revision=2`, undefined],
    ] as const) {
      const r = await app.inject({ method, url, payload, headers: bearer(other.access) });
      expectError(r, 404, 'not_found');
    }
  });

  await t.test('two saves on the same base: exactly one wins, the other gets 409', async () => {
    const [a, b] = await Promise.all([
      save(app, owner.access, id, { base_revision: 3, words: [{ index: 2, word: 'YOUR' }] }),
      save(app, owner.access, id, { base_revision: 3, words: [{ index: 2, word: 'yours' }] }),
    ]);
    assert.deepEqual([a.statusCode, b.statusCode].sort(), [201, 409], `${a.body} ${b.body}`);
    const loser = a.statusCode === 409 ? a : b;
    expectError(loser, 409, 'revision_conflict');
    const latest = await detail(app, owner.access, id);
    assert.equal(latest.revision!.number, 4);
    const winner = (a.statusCode === 201 ? a : b).json() as { result: { words: WordTiming[] } };
    assert.equal(latest.words[2]!.word, winner.result.words[2]!.word);
  });

  await t.test('re-aligning a stretch: checks, one at a time, and nothing outside moves', async () => {
    const before = await detail(app, owner.access, id);
    const post = (body: unknown) =>
      app.inject({
        method: 'POST',
        url: `/api/alignments/${id}/realign/`,
        payload: body as Record<string, unknown>,
        headers: bearer(owner.access),
      });
    expectError(await post({ start: 1, end: 0.5 }), 400, 'realign_too_long');
    expectError(await post({ start: 0, end: 61 }), 400, 'realign_too_long');
    assert.ok(before.words[0]!.start! > 0.05, 'the clip starts with silence');
    expectError(await post({ start: 0, end: before.words[0]!.start! - 0.01 }), 400, 'realign_empty');

    // Hold the queue so the second request surely finds the first still waiting.
    await app.jobs.queue.stop();
    // "suit in greasy" (indices 4-6); the window is cut inside them and widens to their edges.
    const from = before.words[4]!;
    const to = before.words[6]!;
    const first = await post({ start: from.start! + 0.01, end: to.end! - 0.01 });
    assert.equal(first.statusCode, 202, first.body);
    const queued = RealignStatus.parse(first.json());
    assert.equal(queued.status, 'queued');
    assert.equal(queued.base_revision, 4);
    expectError(await post({ start: 2, end: 2.5 }), 409, 'realign_busy');
    await app.jobs.queue.start();

    const done = await realignDone(app, owner.access, id, queued.id);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(done.revision, 5);
    const after = await detail(app, owner.access, id);
    assert.equal(after.revision!.number, 5);
    assert.equal(after.revision!.author, 'realign');
    assert.deepEqual(times(after.words.slice(0, 4)), times(before.words.slice(0, 4)));
    assert.deepEqual(times(after.words.slice(7)), times(before.words.slice(7)));
    assert.deepEqual(
      after.words.slice(4, 7).map((w) => w.word),
      ['suit', 'in', 'greasy'],
    );
    for (const w of after.words.slice(4, 7)) {
      assert.equal(w.status, 'aligned', w.word);
      assert.ok(w.start! >= from.start! - 1e-6 && w.end! <= to.end! + 1e-6, `${w.word} inside the window`);
      // its phones re-aligned with it: they start where the word starts
      assert.equal(w.phones[0]?.start, w.start, w.word);
    }
    const list = RevisionList.parse(
      (await app.inject({ url: `/api/alignments/${id}/revisions/`, headers: bearer(owner.access) })).json(),
    );
    assert.deepEqual(
      list.map((r) => [r.revision, r.author]),
      [
        [1, 'engine'],
        [2, 'user'],
        [3, 'user'],
        [4, 'user'],
        [5, 'realign'],
      ],
    );
    assert.deepEqual(list[4]!.changed_words, [4, 5, 6]);
  });

  await t.test('re-aligning with corrected text replaces the stretch’s words', async () => {
    const before = await detail(app, owner.access, id);
    const wash = before.words[7]!;
    const water = before.words[8]!;
    const r = await app.inject({
      method: 'POST',
      url: `/api/alignments/${id}/realign/`,
      payload: { start: wash.start!, end: water.end!, text: 'wash the water' },
      headers: bearer(owner.access),
    });
    assert.equal(r.statusCode, 202, r.body);
    const done = await realignDone(app, owner.access, id, RealignStatus.parse(r.json()).id);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(done.text, 'wash the water');
    const after = await detail(app, owner.access, id);
    assert.equal(after.revision!.number, 6);
    assert.equal(after.words.length, 12);
    assert.deepEqual(
      after.words.map((w) => w.word),
      [
        ...before.words.slice(0, 7).map((w) => w.word),
        'wash',
        'the',
        'water',
        ...before.words.slice(9).map((w) => w.word),
      ],
    );
    assert.deepEqual(
      after.words.map((w) => w.index),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
    );
    assert.equal(after.text.original, 'She had your dark suit in greasy wash the water all year.');
    // the new words and those after them point at their own text in the new transcript
    for (const w of after.words.slice(7))
      assert.equal(after.text.original.slice(w.char_start, w.char_end), w.word);
    assert.deepEqual(
      times(after.words.slice(10)).map((x) => x.slice(1)),
      times(before.words.slice(9)).map((x) => x.slice(1)),
    );
    assert.equal(after.metrics.words_total, 12);
  });

  await t.test('a stretch never widens over a word corrected by hand that it only cuts', async () => {
    const before = await detail(app, owner.access, id);
    const dark = before.words[3]!;
    const suit = before.words[4]!;
    assert.equal(dark.hand_corrected, true, '"dark" was retimed by hand (revision 2)');
    assert.equal(suit.hand_corrected, undefined, '"suit" is the engine’s (re-aligned)');
    const post = (body: unknown) =>
      app.inject({
        method: 'POST',
        url: `/api/alignments/${id}/realign/`,
        payload: body as Record<string, unknown>,
        headers: bearer(owner.access),
      });
    // inside "your" alone, a word corrected by hand: nothing may change
    const your = before.words[2]!;
    expectError(
      await post({ start: ms(your.start! + 0.01), end: ms(your.end! - 0.01) }),
      400,
      'realign_empty',
    );
    // from the middle of "dark" to the middle of "suit": "dark" stays, "suit" is re-aligned whole
    const r = await post({
      start: ms((dark.start! + dark.end!) / 2),
      end: ms((suit.start! + suit.end!) / 2),
    });
    assert.equal(r.statusCode, 202, r.body);
    const done = await realignDone(app, owner.access, id, RealignStatus.parse(r.json()).id);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const after = await detail(app, owner.access, id);
    assert.deepEqual(after.words.slice(0, 4), before.words.slice(0, 4), 'the corrected words are untouched');
    assert.deepEqual(times(after.words.slice(5)), times(before.words.slice(5)));
    const list = RevisionList.parse(
      (await app.inject({ url: `/api/alignments/${id}/revisions/`, headers: bearer(owner.access) })).json(),
    );
    assert.deepEqual(list.at(-1)!.changed_words, [4]);
    assert.ok(after.words[4]!.start! >= dark.end! - 1e-6, '"suit" starts where "dark" ends, or later');
  });

  await t.test('a word retimed without its phones carries its edge phones along', async () => {
    // "greasy" starts past the end of its first phone and ends before its last one starts: the save
    // gives no phones, and the word's phones follow it instead of being refused
    const before = await detail(app, owner.access, id);
    const pos = before.words.findIndex((w) => w.word === 'greasy');
    const greasy = before.words[pos]!;
    assert.ok(greasy.phones.length >= 3, 'greasy has inner phones');
    const start = ms(greasy.phones[0]!.end + 0.01);
    const end = ms(greasy.phones.at(-1)!.start - 0.01);
    assert.ok(end > start + 0.03, `${start}–${end}`);
    const base = before.revision!.number;
    const r = await save(app, owner.access, id, {
      base_revision: base,
      words: [{ index: greasy.index, start, end }],
    });
    assert.equal(r.statusCode, 201, r.body);
    const moved = RevisionCreated.parse(r.json()).result.words[pos]!;
    assert.equal(moved.phones.length, greasy.phones.length);
    assert.equal(moved.phones[0]!.start, start);
    assert.equal(moved.phones.at(-1)!.end, end);
    moved.phones.forEach((p, k) => {
      assert.ok(p.end > p.start, `phone ${k} keeps a duration`);
      if (k > 0) assert.equal(p.start, moved.phones[k - 1]!.end, `phone ${k} follows the one before`);
    });
    // a small move keeps the inner phone boundaries where they were
    const small = await save(app, owner.access, id, {
      base_revision: base + 1,
      words: [{ index: greasy.index, start: ms(start - 0.005) }],
    });
    assert.equal(small.statusCode, 201, small.body);
    const nudged = RevisionCreated.parse(small.json()).result.words[pos]!;
    assert.equal(nudged.phones[0]!.start, ms(start - 0.005));
    assert.deepEqual(
      nudged.phones.slice(1).map((p) => [p.start, p.end]),
      moved.phones.slice(1).map((p) => [p.start, p.end]),
    );
  });

  await t.test(
    'the personal data export lists the revisions and the share link, with their files',
    async () => {
      const res = await app.inject({ url: '/api/auth/export/', headers: bearer(owner.access) });
      assert.equal(res.statusCode, 200);
      const zip = readZip(res.rawPayload);
      const revisions = JSON.parse(zip.get('revisions.json')!.toString()) as {
        alignment_id: string;
        revision: number;
        author: string;
        file: string;
      }[];
      // the saved revisions the API lists (revision 1, the engine's own result, is no row)
      const listed = RevisionList.parse(
        (await app.inject({ url: `/api/alignments/${id}/revisions/`, headers: bearer(owner.access) })).json(),
      ).filter((r) => r.revision > 1);
      assert.ok(listed.length >= 4, `the saves and re-alignments above made revisions: ${listed.length}`);
      assert.deepEqual(
        revisions.map((r) => [r.alignment_id, r.revision, r.author]),
        listed.map((r) => [id, r.revision, r.author]).sort((a, b) => Number(a[1]) - Number(b[1])),
      );
      for (const r of revisions) assert.ok(zip.has(`files/${r.file}`), `files/${r.file} is in the export`);
      const shares = JSON.parse(zip.get('shares.json')!.toString()) as { alignment_id: string }[];
      assert.deepEqual(
        shares.map((x) => x.alignment_id),
        [id],
      );
    },
  );
});
