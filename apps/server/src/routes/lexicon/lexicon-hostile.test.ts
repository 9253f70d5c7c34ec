// Issue 27, item 12: the lexicon export wrote `=HYPERLINK(...)`, `@SUM`, `-2+3` raw where the alignment
// CSV guards them; the import dropped IPA symbols it could not read without a word; 1 MB of bad lines
// answered with a 4.7 MB list. Real app, real database (SQLite, or PostgreSQL).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { LEXICON_IMPORT_REPORT_MAX } from '@tazamun/contracts/lexicon';
import { approvedUser, bearer, createTestApp, expectError } from '@tazamun/server/testing/test-app';

function importDict(app: FastifyInstance, access: string, body: string) {
  return app.inject({
    method: 'POST',
    url: '/api/lexicon/import/?language=eng',
    headers: { ...bearer(access), 'content-type': 'text/tab-separated-values' },
    payload: body,
  });
}

test('the export guards formula-like words; importing the export gives the same words back', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const words = ['=hyperlink("http://x.example")', '@sum(1)', '-2+3', '+cmd', 'plain'];
  const imported = await importDict(app, u.access, words.map((w) => `${w}\tp l a n`).join('\n'));
  assert.equal(imported.statusCode, 200, imported.body);
  assert.equal(imported.json().imported, 5);
  const out = await app.inject({ url: '/api/lexicon/export/?language=eng', headers: bearer(u.access) });
  assert.equal(out.statusCode, 200);
  const lines = out.body.trim().split('\n');
  for (const line of lines) assert.ok(!/^[=+\-@]/.test(line), `no line opens a formula: ${line}`);
  assert.ok(lines.includes(`'=hyperlink("http://x.example")\tp l a n`), out.body);
  assert.ok(lines.includes(`'-2+3\tp l a n`));
  assert.ok(lines.includes('plain\tp l a n'));
  // round trip: a second user imports the file and holds the same words
  const v = await approvedUser(app);
  const again = await importDict(app, v.access, out.body);
  assert.equal(again.json().imported, 5, again.body);
  const list = await app.inject({ url: '/api/lexicon/?language=eng', headers: bearer(v.access) });
  assert.deepEqual((list.json().results as { word: string }[]).map((e) => e.word).sort(), [...words].sort());
});

test('IPA that cannot be read is refused with its symbols named, one entry or a whole import', async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const one = await app.inject({
    method: 'POST',
    url: '/api/lexicon/',
    headers: bearer(u.access),
    payload: { language: 'eng', word: 'hello', ipa: 'h@ləʊ' },
  });
  const body = expectError(one, 400, 'validation_error');
  assert.deepEqual(body.ipa, ['This value is invalid: not IPA: "@".']);
  const res = await importDict(
    app,
    u.access,
    ['hello\th ə l əʊ', 'world\tw $ l d', 'caps\tK A P S', 'fine\tf aɪ n'].join('\n'),
  );
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json(), {
    imported: 2,
    skipped: [
      { line: 2, reason: 'not IPA: "$"' },
      { line: 3, reason: 'not IPA: "K" "A" "P" "S"' },
    ],
    skipped_count: 2,
  });
});

test(`1 MB of bad lines: the first ${LEXICON_IMPORT_REPORT_MAX} are listed, the rest counted`, async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const bad = Array.from({ length: 90_000 }, (_, k) => `w${k}\t@@`).join('\n');
  assert.ok(bad.length > 800_000 && bad.length < 1024 * 1024);
  const res = await importDict(app, u.access, bad);
  assert.equal(res.statusCode, 200, res.body.slice(0, 200));
  const got = res.json() as { imported: number; skipped: unknown[]; skipped_count: number };
  assert.equal(got.imported, 0);
  assert.equal(got.skipped.length, LEXICON_IMPORT_REPORT_MAX);
  assert.equal(got.skipped_count, 90_000);
  assert.ok(res.body.length < 10_000, `a short answer (${res.body.length} bytes)`);
});
