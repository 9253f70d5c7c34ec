// Batch uploads into a project through the real app: MFA's layouts in a zip and as multipart pairs,
// hostile zips refused before anything is stored, and the quota taken all or nothing. The recordings
// are made at test time with ffmpeg from the shared eval clips (never committed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { approvedUser, bearer, expectError, registerUser } from '@tazamun/server/testing/test-app';
import { writeZip } from '@tazamun/server/testing/zip-writer';
import type { RawEntry } from '@tazamun/server/testing/zip-writer';
import {
  EVAL_DIR,
  createJobsTestApp,
  ffmpeg,
  multipart,
  tempDir,
} from '@tazamun/server/testing/jobs-test-app';
import type { Part } from '@tazamun/server/testing/jobs-test-app';
import { readUserText } from '../../jobs/alignment-files.ts';

const clip = (name: string) => {
  const base = join(EVAL_DIR, 'timit-dev', name);
  if (!existsSync(`${base}.wav`)) throw new Error(`missing test audio ${base}.wav`);
  return {
    wav: readFileSync(`${base}.wav`),
    text: (JSON.parse(readFileSync(`${base}.json`, 'utf8')) as { text: string }).text,
  };
};

const A = clip('dr1-fvmh0_sa1');
const B = clip('dr1-fvmh0_sa2');
const C = clip('dr1-mcpm0_sa1');

function textGrid(tiers: string[][]): string {
  const out = [
    'File type = "ooTextFile"',
    'Object class = "TextGrid"',
    '',
    '0',
    '3',
    '<exists>',
    `${tiers.length}`,
  ];
  for (const labels of tiers) {
    out.push('"IntervalTier"', '"words"', '0', '3', `${labels.length}`);
    labels.forEach((l, k) => out.push(`${k}`, `${k + 1}`, `"${l}"`));
  }
  return out.join('\n');
}

async function project(app: FastifyInstance, access: string, name = 'Corpus'): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/projects/',
    headers: bearer(access),
    payload: { name },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id as string;
}

function batch(app: FastifyInstance, access: string, projectId: string, parts: Part[], lang = 'en') {
  const { payload, headers } = multipart(parts);
  return app.inject({
    method: 'POST',
    url: `/api/projects/${projectId}/batch/`,
    payload,
    headers: { ...headers, ...bearer(access), 'accept-language': lang },
  });
}

const zipPart = (zip: Buffer): Part => ({
  name: 'archive',
  filename: 'corpus.zip',
  content: zip,
  contentType: 'application/zip',
});

async function nothingStored(app: FastifyInstance, dir: string, userId: string, access: string) {
  const rows = await app.deps.db.selectFrom('alignments').select('id').execute();
  assert.equal(rows.length, 0, 'no alignment row');
  const folder = join(dir, 'files', 'users', userId, 'alignments');
  assert.deepEqual(existsSync(folder) ? readdirSync(folder) : [], [], 'no stored file');
  assert.deepEqual(readdirSync(join(dir, 'tmp')), [], 'no temp file left');
  const quota = (await app.inject({ url: '/api/auth/quota/', headers: bearer(access) })).json().quota;
  assert.equal(quota.used_today, 0, 'no quota used');
}

test('a zip in MFA’s layout: one alignment per pair at any depth, the rest skipped with reasons', async (t) => {
  const { app } = await createJobsTestApp(t, { concurrency: 0 });
  const u = await approvedUser(app);
  const pid = await project(app, u.access);
  const media = tempDir(t);
  ffmpeg([
    '-i',
    join(EVAL_DIR, 'timit-dev', 'dr1-fvmh0_sa2.wav'),
    '-c:a',
    'libmp3lame',
    join(media, 'b.mp3'),
  ]);
  const zip = writeZip([
    { name: 'spk0/', content: Buffer.alloc(0), store: true },
    { name: 'spk0/utt0.wav', content: A.wav },
    { name: 'spk0/utt0.lab', content: Buffer.from(A.text) },
    { name: 'spk0/utt0.txt', content: Buffer.from('a worse transcript') },
    { name: 'spk1/utt1.mp3', content: readFileSync(join(media, 'b.mp3')) },
    { name: 'spk1/utt1.txt', content: Buffer.from(`\uFEFF${B.text}\r\n`) },
    { name: 'deep/a/b/utt2.wav', content: C.wav },
    { name: 'deep/a/b/utt2.TextGrid', content: Buffer.from(textGrid([['', C.text, '']])) },
    { name: 'two/tiers.wav', content: A.wav },
    { name: 'two/tiers.TextGrid', content: Buffer.from(textGrid([['one'], ['two']])) },
    { name: 'fake.wav', content: Buffer.from('not audio at all\n'.repeat(100)) },
    { name: 'fake.lab', content: Buffer.from('words') },
    { name: 'empty.wav', content: A.wav },
    { name: 'empty.lab', content: Buffer.from('  \n') },
    { name: 'alone.wav', content: A.wav },
    { name: 'orphan.lab', content: Buffer.from('no audio') },
    { name: 'README.md', content: Buffer.from('# corpus') },
    { name: '__MACOSX/spk0/._utt0.wav', content: Buffer.from('resource fork') },
  ]);
  const res = await batch(app, u.access, pid, [
    { name: 'language', value: 'eng' },
    { name: 'precision', value: 'high' },
    zipPart(zip),
  ]);
  assert.equal(res.statusCode, 202, res.body);
  const body = res.json();
  assert.deepEqual(
    body.alignments.map((a: Record<string, unknown>) => [a.file_name, a.title, a.status, a.project_id]),
    [
      ['deep/a/b/utt2.wav', 'deep/a/b/utt2', 'queued', pid],
      ['spk0/utt0.wav', 'spk0/utt0', 'queued', pid],
      ['spk1/utt1.mp3', 'spk1/utt1', 'queued', pid],
    ],
  );
  assert.deepEqual(
    body.alignments.map((a: { options: { precision: string }; language: string }) => [
      a.language,
      a.options.precision,
    ]),
    [
      ['eng', 'high'],
      ['eng', 'high'],
      ['eng', 'high'],
    ],
  );
  assert.deepEqual(body.skipped, [
    {
      name: 'README.md',
      reason: 'Neither a recording (WAV, MP3, M4A, OGG) nor a transcript (.lab, .txt, .TextGrid).',
    },
    { name: 'alone.wav', reason: 'No transcript with the same base name (.lab, .txt or .TextGrid).' },
    { name: 'empty.lab', reason: 'The transcript is required (a text field or a text file).' },
    {
      name: 'fake.wav',
      reason: 'This file is not a readable audio file. Accepted formats: MP3, WAV, M4A, OGG.',
    },
    { name: 'orphan.lab', reason: 'No recording with the same base name.' },
    { name: 'spk0/utt0.txt', reason: 'Another file with the same base name is used instead.' },
    { name: 'two/tiers.TextGrid', reason: 'The TextGrid must hold the transcript in a single tier.' },
  ]);
  // the transcripts stored are the pair's own: .lab over .txt, BOM and CRLF gone, the TextGrid's tier
  const rows = await app.deps.db.selectFrom('alignments').selectAll().orderBy('file_name').execute();
  const texts = await Promise.all(
    rows.map((r) => readUserText(app.deps.files, u.id, (r as unknown as { text_file: string }).text_file)),
  );
  assert.deepEqual(texts, [C.text, A.text, `${B.text}\n`]);
  const quota = (await app.inject({ url: '/api/auth/quota/', headers: bearer(u.access) })).json().quota;
  assert.equal(quota.used_today, 3);
  const p = (await app.inject({ url: `/api/projects/${pid}/`, headers: bearer(u.access) })).json();
  assert.equal(p.alignments_count, 3);

  // reasons in the request's language
  const fr = await batch(
    app,
    u.access,
    pid,
    [
      { name: 'language', value: 'eng' },
      zipPart(
        writeZip([
          { name: 'x/a.wav', content: A.wav },
          { name: 'x/a.lab', content: Buffer.from(A.text) },
          { name: 'x/b.wav', content: A.wav },
        ]),
      ),
    ],
    'fr',
  );
  assert.equal(fr.statusCode, 202, fr.body);
  assert.deepEqual(fr.json().skipped, [
    { name: 'x/b.wav', reason: 'Aucune transcription du même nom de base (.lab, .txt ou .TextGrid).' },
  ]);
});

test('audio + text_file parts pair by base name, or in order when the names differ', async (t) => {
  const { app } = await createJobsTestApp(t, { concurrency: 0 });
  const u = await approvedUser(app);
  const pid = await project(app, u.access);
  const byName = await batch(app, u.access, pid, [
    { name: 'language', value: 'eng' },
    { name: 'audio', filename: 'utt-b.wav', content: B.wav },
    { name: 'audio', filename: 'utt-a.wav', content: A.wav },
    { name: 'text_file', filename: 'utt-a.txt', content: Buffer.from(A.text) },
    { name: 'text_file', filename: 'utt-b.lab', content: Buffer.from(B.text) },
  ]);
  assert.equal(byName.statusCode, 202, byName.body);
  const ids = byName.json().alignments.map((a: { id: string; file_name: string }) => [a.file_name, a.id]);
  assert.deepEqual(
    ids.map((x: string[]) => x[0]),
    ['utt-a.wav', 'utt-b.wav'],
  );
  const textOf = async (id: string) => {
    const r = await app.deps.db
      .selectFrom('alignments')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return readUserText(app.deps.files, u.id, (r as unknown as { text_file: string }).text_file);
  };
  assert.equal(await textOf(ids[0][1]), A.text);
  assert.equal(await textOf(ids[1][1]), B.text);

  const inOrder = await batch(app, u.access, pid, [
    { name: 'language', value: 'eng' },
    { name: 'audio', filename: 'first.wav', content: C.wav },
    { name: 'text_file', filename: 'transcript-1.txt', content: Buffer.from(C.text) },
    { name: 'audio', filename: '../../second.wav', content: B.wav },
    { name: 'text_file', filename: 'transcript-2.txt', content: Buffer.from(B.text) },
  ]);
  assert.equal(inOrder.statusCode, 202, inOrder.body);
  const got = inOrder.json().alignments as { id: string; file_name: string }[];
  // a client name is a label, never a path: the climbing segments are dropped
  assert.deepEqual(
    got.map((a) => a.file_name),
    ['first.wav', 'second.wav'],
  );
  assert.equal(await textOf(got[0]!.id), C.text);
  assert.equal(await textOf(got[1]!.id), B.text);
});

test('hostile and broken zips are refused before anything is stored', async (t) => {
  const { app, dir } = await createJobsTestApp(t, { concurrency: 0 });
  const u = await approvedUser(app);
  const pid = await project(app, u.access);
  const send = (zip: Buffer) => batch(app, u.access, pid, [{ name: 'language', value: 'eng' }, zipPart(zip)]);
  const pair: RawEntry[] = [
    { name: 'ok/a.wav', content: A.wav },
    { name: 'ok/a.lab', content: Buffer.from(A.text) },
  ];

  const climbing = expectError(
    await send(
      writeZip([
        ...pair,
        { name: '../../etc/b.wav', content: A.wav },
        { name: '../../etc/b.lab', content: Buffer.from('x') },
      ]),
    ),
    400,
    'archive_unsafe',
  );
  assert.equal(climbing.detail, 'The archive was refused: an entry’s path leaves the archive.');
  expectError(
    await send(writeZip([...pair, { name: '/abs/c.lab', content: Buffer.from('x') }])),
    400,
    'archive_unsafe',
  );
  expectError(
    await send(writeZip([...pair, { name: 'win\\d.lab', content: Buffer.from('x') }])),
    400,
    'archive_unsafe',
  );
  // 20 MB of zeros pack into about 20 kB: a bomb, refused from the directory before inflating
  const bomb = expectError(
    await send(writeZip([...pair, { name: 'bomb.wav', content: Buffer.alloc(20 * 1024 * 1024) }])),
    400,
    'archive_unsafe',
  );
  assert.equal(bomb.detail, 'The archive was refused: an entry inflates more than 100 times its size.');
  const many = Array.from({ length: 2001 }, (_, k) => ({
    name: `n/${k}.txt`,
    content: Buffer.from('x'),
    store: true,
  }));
  const tooMany = expectError(await send(writeZip(many)), 400, 'archive_unsafe');
  assert.equal(tooMany.detail, 'The archive was refused: too many entries (2001, at most 2000).');
  expectError(await send(Buffer.from('PK\u0003\u0004 but nothing more')), 400, 'archive_invalid');
  expectError(await send(A.wav), 400, 'archive_invalid');
  const empty = expectError(
    await send(
      writeZip([
        { name: 'a.wav', content: A.wav },
        { name: 'b.lab', content: Buffer.from('x') },
      ]),
    ),
    400,
    'batch_empty',
  );
  assert.equal((empty.skipped as unknown[]).length, 2);
  // an entry whose header understates its size: inflating stops at the declared size, the archive is refused
  const liar = await send(
    writeZip([
      ...pair,
      { name: 'liar.wav', content: A.wav, declaredSize: 1000 },
      { name: 'liar.lab', content: Buffer.from('x') },
    ]),
  );
  assert.equal(
    expectError(liar, 400, 'archive_unsafe').detail,
    'The archive was refused: an entry holds more than its header declares.',
  );
  await nothingStored(app, dir, u.id, u.access);

  // not the caller's project, and no body at all
  const other = await approvedUser(app);
  expectError(
    await batch(app, other.access, pid, [{ name: 'language', value: 'eng' }, zipPart(writeZip(pair))]),
    404,
    'not_found',
  );
  expectError(await batch(app, u.access, pid, [{ name: 'language', value: 'eng' }]), 400, 'audio_required');
  expectError(await batch(app, u.access, pid, [zipPart(writeZip(pair))]), 400, 'language_required');
  const pending = await registerUser(app);
  expectError(await batch(app, pending.access, pid, [zipPart(writeZip(pair))]), 403, 'awaiting_approval');
  await nothingStored(app, dir, u.id, u.access);
});

test('the quota is taken per recording, all or nothing, and the 429 says how many fit', async (t) => {
  const { app, dir } = await createJobsTestApp(t, { concurrency: 0 });
  const u = await approvedUser(app);
  const pid = await project(app, u.access);
  await app.deps.db.updateTable('users').set({ daily_limit: 3 }).where('id', '=', u.id).execute();
  const zipOf = (n: number) =>
    writeZip(
      Array.from({ length: n }, (_, k) => [
        { name: `s/u${k}.wav`, content: A.wav },
        { name: `s/u${k}.lab`, content: Buffer.from(A.text) },
      ]).flat(),
    );
  const send = (n: number) =>
    batch(app, u.access, pid, [{ name: 'language', value: 'eng' }, zipPart(zipOf(n))]);

  const over = expectError(await send(4), 429, 'quota_insufficient');
  assert.equal(
    over.detail,
    'This batch needs 4 alignments but only 3 fit in today’s quota (3 per day). Nothing was stored.',
  );
  assert.equal(over.needed, 4);
  assert.equal(over.fits, 3);
  await nothingStored(app, dir, u.id, u.access);

  const two = await send(2);
  assert.equal(two.statusCode, 202, two.body);
  assert.equal(two.json().alignments.length, 2);
  const again = expectError(await send(2), 429, 'quota_insufficient');
  assert.equal(again.fits, 1);
  assert.equal((await app.deps.db.selectFrom('alignments').select('id').execute()).length, 2);
  const one = await send(1);
  assert.equal(one.statusCode, 202, one.body);
  // nothing left: refused before the body is read, with the single upload's message
  expectError(await send(1), 429, 'quota_exhausted');
  const quota = (await app.inject({ url: '/api/auth/quota/', headers: bearer(u.access) })).json().quota;
  assert.equal(quota.used_today, 3);
});
