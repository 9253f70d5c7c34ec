// Issue 27, item 5: 2,095 revisions in 20 s on an 11-word alignment, each a full copy. A save that
// changes nothing now stores nothing; equal bodies share one file; an alignment keeps at most
// MAX_REVISIONS; saves are rate-limited per user. Real app, real database (both), real file store.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { MAX_REVISIONS, REVISION_SAVES_PER_MINUTE, RevisionCreated } from '@tazamun/contracts/revisions';
import { approvedUser, bearer, createTestApp, expectError } from '@tazamun/server/testing/test-app';
import { completedAlignment } from '@tazamun/server/testing/completed-alignment';

function save(app: FastifyInstance, access: string, id: string, body: Record<string, unknown>) {
  return app.inject({
    method: 'POST',
    url: `/api/alignments/${id}/revisions/`,
    payload: body,
    headers: bearer(access),
  });
}

const revisionFiles = (dir: string, userId: string, id: string): string[] => {
  const folder = join(dir, 'files', 'users', userId, 'alignments', id, 'revisions');
  return existsSync(folder) ? readdirSync(folder).sort() : [];
};

const rowCount = async (app: FastifyInstance, id: string) =>
  (
    await app.deps.db
      .selectFrom('alignment_revisions')
      .select('revision')
      .where('alignment_id', '=', id)
      .execute()
  ).length;

test('a save that changes nothing stores nothing; equal bodies share one file', async (t) => {
  const { app, dir } = await createTestApp(t);
  const u = await approvedUser(app);
  const { id, result } = await completedAlignment(app, u.id);
  const label = result.words[1]!.word;

  const first = await save(app, u.access, id, { base_revision: 1, words: [{ index: 1, word: 'HAD' }] });
  assert.equal(first.statusCode, 201, first.body);
  assert.equal(RevisionCreated.parse(first.json()).revision, 2);

  // the same edit again, on the revision it made: nothing changes, nothing is stored
  const again = await save(app, u.access, id, { base_revision: 2, words: [{ index: 1, word: 'HAD' }] });
  assert.equal(again.statusCode, 200, again.body);
  const same = RevisionCreated.parse(again.json());
  assert.equal(same.revision, 2);
  assert.deepEqual(same.changed_words, [1]);
  assert.equal(same.result.words[1]!.word, 'HAD');
  const noop = await save(app, u.access, id, {
    base_revision: 2,
    words: [{ index: 3, start: result.words[3]!.start }],
  });
  assert.equal(noop.statusCode, 200, noop.body);
  assert.equal(await rowCount(app, id), 1);
  assert.equal(revisionFiles(dir, u.id, id).length, 1);

  // undone, then redone: three revisions, two bodies on disk
  assert.equal(
    (await save(app, u.access, id, { base_revision: 2, words: [{ index: 1, word: label }] })).statusCode,
    201,
  );
  assert.equal(
    (await save(app, u.access, id, { base_revision: 3, words: [{ index: 1, word: 'HAD' }] })).statusCode,
    201,
  );
  assert.equal(await rowCount(app, id), 3);
  assert.equal(revisionFiles(dir, u.id, id).length, 2);
  // and each revision still reads as itself
  for (const [n, word] of [
    [2, 'HAD'],
    [3, label],
    [4, 'HAD'],
  ] as const) {
    const res = await app.inject({ url: `/api/alignments/${id}/?revision=${n}`, headers: bearer(u.access) });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().result.words[1].word, word, `revision ${n}`);
    assert.equal(res.json().result.revision.number, n);
  }
});

test(`an alignment keeps at most ${MAX_REVISIONS} revisions: the next save is 409 revision_limit`, async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const { id } = await completedAlignment(app, u.id);
  // revisions 2 … MAX-1 as rows over one stored body (saving them one by one would take the rate limit)
  const first = await save(app, u.access, id, { base_revision: 1, words: [{ index: 0, word: 'SHE' }] });
  assert.equal(first.statusCode, 201, first.body);
  const { file } = await app.deps.db
    .selectFrom('alignment_revisions')
    .select('file')
    .where('alignment_id', '=', id)
    .executeTakeFirstOrThrow();
  const now = app.deps.clock.now().toISOString();
  for (let n = 3; n < MAX_REVISIONS; n += 100)
    await app.deps.db
      .insertInto('alignment_revisions')
      .values(
        Array.from({ length: Math.min(100, MAX_REVISIONS - n) }, (_, k) => ({
          alignment_id: id,
          revision: n + k,
          author: 'user' as const,
          changed_words: '[0]',
          file,
          created_at: now,
        })),
      )
      .execute();
  const last = await save(app, u.access, id, {
    base_revision: MAX_REVISIONS - 1,
    words: [{ index: 0, word: 'she' }],
  });
  assert.equal(last.statusCode, 201, last.body);
  assert.equal(last.json().revision, MAX_REVISIONS);
  const over = expectError(
    await save(app, u.access, id, { base_revision: MAX_REVISIONS, words: [{ index: 0, word: 'She' }] }),
    409,
    'revision_limit',
  );
  assert.match(String(over.detail), new RegExp(`already has ${MAX_REVISIONS} revisions`));
  // a re-alignment would be one revision more: refused at the route, no job written
  expectError(
    await app.inject({
      method: 'POST',
      url: `/api/alignments/${id}/realign/`,
      headers: bearer(u.access),
      payload: { start: 0.2, end: 1.5 },
    }),
    409,
    'revision_limit',
  );
  assert.equal((await app.deps.db.selectFrom('jobs').select('id').execute()).length, 0);
  assert.equal(await rowCount(app, id), MAX_REVISIONS - 1);
});

test(`saves are rate-limited per user: ${REVISION_SAVES_PER_MINUTE} a minute, then 429`, async (t) => {
  const { app } = await createTestApp(t);
  const u = await approvedUser(app);
  const other = await approvedUser(app);
  const { id } = await completedAlignment(app, u.id);
  const theirs = await completedAlignment(app, other.id);
  for (let k = 0; k < REVISION_SAVES_PER_MINUTE; k++) {
    const res = await save(app, u.access, id, {
      base_revision: k + 1,
      words: [{ index: 0, word: k % 2 ? 'she' : 'SHE' }],
    });
    assert.equal(res.statusCode, 201, res.body);
  }
  const limited = expectError(
    await save(app, u.access, id, {
      base_revision: REVISION_SAVES_PER_MINUTE + 1,
      words: [{ index: 0, word: 'x' }],
    }),
    429,
    'rate_limited',
  );
  assert.equal(limited.detail, 'Too many requests. Please slow down.');
  // another user saves as usual
  const ok = await save(app, other.access, theirs.id, {
    base_revision: 1,
    words: [{ index: 0, word: 'SHE' }],
  });
  assert.equal(ok.statusCode, 201, ok.body);
});
