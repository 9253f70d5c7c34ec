// The hostile-request catalogue, second round (issue 27), items 1-3: batch uploads built to stop or fill
// the server. A TextGrid declaring `intervals: size = 1e999` (or 2e8) looped on the main thread; a small
// zip holding a transcript of tens of megabytes was inflated and parsed whole; multipart batches wrote
// every part to disk before anything was judged. Each case runs through the real app on a real
// database (SQLite, or PostgreSQL with TAZAMUN_TEST_DB=postgres); nothing may be stored, no quota unit
// spent, and the app must serve the next request. The sequence with a second user, against a server
// process, is in hostile-corpus-sequence.test.ts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { approvedUser, bearer, expectError } from '@tazamun/server/testing/test-app';
import { EVAL_DIR, createJobsTestApp, multipart } from '@tazamun/server/testing/jobs-test-app';
import type { Part } from '@tazamun/server/testing/jobs-test-app';
import { writeZip } from '@tazamun/server/testing/zip-writer';
import { hostileTextGrid, lowRatioText } from '@tazamun/server/testing/hostile-corpus';

const MB = 1024 * 1024;

function clip(name: string): { wav: Buffer; text: string } {
  const base = join(EVAL_DIR, 'timit-dev', name);
  if (!existsSync(`${base}.wav`)) throw new Error(`missing test audio ${base}.wav`);
  return {
    wav: readFileSync(`${base}.wav`),
    text: (JSON.parse(readFileSync(`${base}.json`, 'utf8')) as { text: string }).text,
  };
}

const A = clip('dr1-fvmh0_sa1');

async function project(app: FastifyInstance, access: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/projects/',
    headers: bearer(access),
    payload: { name: 'Corpus' },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id as string;
}

function batch(app: FastifyInstance, access: string, projectId: string, parts: Part[]) {
  const { payload, headers } = multipart(parts);
  return app.inject({
    method: 'POST',
    url: `/api/projects/${projectId}/batch/`,
    payload,
    headers: { ...headers, ...bearer(access) },
  });
}

const zipPart = (zip: Buffer): Part => ({ name: 'archive', filename: 'corpus.zip', content: zip });

async function nothingStored(app: FastifyInstance, dir: string, userId: string, access: string) {
  assert.equal((await app.deps.db.selectFrom('alignments').select('id').execute()).length, 0, 'no row');
  const folder = join(dir, 'files', 'users', userId, 'alignments');
  assert.deepEqual(existsSync(folder) ? readdirSync(folder) : [], [], 'no stored file');
  assert.deepEqual(readdirSync(join(dir, 'tmp')), [], 'no temp file left');
  const quota = (await app.inject({ url: '/api/auth/quota/', headers: bearer(access) })).json().quota;
  assert.equal(quota.used_today, 0, 'no quota used');
}

test('item 1: TextGrids declaring 1e999 or 2e8 intervals are skipped as malformed; the app stays responsive', async (t) => {
  const { app } = await createJobsTestApp(t, { concurrency: 0 });
  const u = await approvedUser(app);
  const pid = await project(app, u.access);
  const zip = writeZip([
    { name: 'inf/a.wav', content: A.wav },
    { name: 'inf/a.TextGrid', content: Buffer.from(hostileTextGrid('1e999')) },
    { name: 'big/b.wav', content: A.wav },
    { name: 'big/b.TextGrid', content: Buffer.from(hostileTextGrid('2e8')) },
    { name: 'ok/c.wav', content: A.wav },
    { name: 'ok/c.lab', content: Buffer.from(A.text) },
  ]);
  // the batch and a health probe in flight together: the probe is answered while transcripts are read
  const [res, health] = await Promise.all([
    batch(app, u.access, pid, [{ name: 'language', value: 'eng' }, zipPart(zip)]),
    app.inject({ url: '/api/health/' }),
  ]);
  assert.equal(health.statusCode, 200);
  assert.equal(res.statusCode, 202, res.body);
  const body = res.json() as {
    alignments: { file_name: string }[];
    skipped: { name: string; reason: string }[];
  };
  assert.deepEqual(
    body.alignments.map((a) => a.file_name),
    ['ok/c.wav'],
  );
  const malformed =
    'The TextGrid cannot be read: it is damaged, or it declares more intervals than it holds.';
  assert.deepEqual(body.skipped, [
    { name: 'big/b.TextGrid', reason: malformed },
    { name: 'inf/a.TextGrid', reason: malformed },
  ]);
  const quota = (await app.inject({ url: '/api/auth/quota/', headers: bearer(u.access) })).json().quota;
  assert.equal(quota.used_today, 1, 'one unit, for the one good pair');
  // the same TextGrid as a multipart text_file part, in French
  const { payload, headers } = multipart([
    { name: 'language', value: 'eng' },
    { name: 'audio', filename: 'x.wav', content: A.wav },
    { name: 'text_file', filename: 'x.TextGrid', content: Buffer.from(hostileTextGrid('1e999')) },
  ]);
  const fr = await app.inject({
    method: 'POST',
    url: `/api/projects/${pid}/batch/`,
    payload,
    headers: { ...headers, ...bearer(u.access), 'accept-language': 'fr' },
  });
  const empty = expectError(fr, 400, 'batch_empty');
  assert.deepEqual(empty.skipped, [
    {
      name: 'x.TextGrid',
      reason:
        'Le TextGrid ne peut pas être lu : il est endommagé ou annonce plus d’intervalles qu’il n’en contient.',
    },
  ]);
});

test('item 2: a transcript over 5 MB inside a zip is skipped from its header, never inflated', async (t) => {
  const { app, dir } = await createJobsTestApp(t, { concurrency: 0 });
  const u = await approvedUser(app);
  const pid = await project(app, u.access);
  // about 40 times smaller packed: under the zip-bomb ratio, as the probe's 191 MB TextGrid in 2.2 MB was
  const bigLab = lowRatioText(24 * MB);
  const bigGrid = Buffer.concat([
    Buffer.from(hostileTextGrid('3').replace(/\n$/, '')),
    Buffer.from('\n'),
    lowRatioText(24 * MB),
  ]);
  const zip = writeZip([
    { name: 'lab/a.wav', content: A.wav },
    { name: 'lab/a.lab', content: bigLab },
    { name: 'grid/b.wav', content: A.wav },
    { name: 'grid/b.TextGrid', content: bigGrid },
  ]);
  assert.ok(zip.length < 2 * MB, `the zip is small (${zip.length} bytes)`);
  const res = await batch(app, u.access, pid, [{ name: 'language', value: 'eng' }, zipPart(zip)]);
  const body = expectError(res, 400, 'batch_empty');
  const tooLarge = 'The text is too large (maximum 5 MB).';
  assert.deepEqual(body.skipped, [
    { name: 'grid/b.TextGrid', reason: tooLarge },
    { name: 'lab/a.lab', reason: tooLarge },
  ]);
  await nothingStored(app, dir, u.id, u.access);
});

test('item 2: the transcripts of one zip together are capped at 64 MB before anything is inflated', async (t) => {
  const { app, dir } = await createJobsTestApp(t, { concurrency: 0 });
  const u = await approvedUser(app);
  const pid = await project(app, u.access);
  const text = lowRatioText(5 * MB - 1024);
  const entries = Array.from({ length: 14 }, (_, k) => [
    { name: `s/u${k}.wav`, content: A.wav },
    { name: `s/u${k}.lab`, content: text },
  ]).flat();
  const res = await batch(app, u.access, pid, [
    { name: 'language', value: 'eng' },
    zipPart(writeZip(entries)),
  ]);
  const body = expectError(res, 413, 'batch_text_too_large');
  assert.equal(
    body.detail,
    'The transcripts of this batch are too large together (maximum 64 MB). Split the corpus into several batches. Nothing was stored.',
  );
  await nothingStored(app, dir, u.id, u.access);
});

test('item 3: multipart parts past BATCH_MAX_MB together are refused while they stream (413)', async (t) => {
  const { app, dir } = await createJobsTestApp(t, { concurrency: 0 }, { batchMaxBytes: 8 * MB });
  const u = await approvedUser(app);
  const pid = await project(app, u.access);
  const part = (k: number): Part => ({
    name: 'audio',
    filename: `p${k}.wav`,
    content: Buffer.alloc(3 * MB, k),
  });
  const res = await batch(app, u.access, pid, [
    { name: 'language', value: 'eng' },
    part(1),
    part(2),
    part(3),
  ]);
  const body = expectError(res, 413, 'batch_too_large');
  assert.equal(
    body.detail,
    'This batch is too large: its files together may hold at most 8 MB. Nothing was stored.',
  );
  await nothingStored(app, dir, u.id, u.access);
  // the next, normal batch of the same user goes through
  const ok = await batch(app, u.access, pid, [
    { name: 'language', value: 'eng' },
    { name: 'audio', filename: 'a.wav', content: A.wav },
    { name: 'text_file', filename: 'a.lab', content: Buffer.from(A.text) },
  ]);
  assert.equal(ok.statusCode, 202, ok.body);
});

/** A tmpfs of `size` on a fresh directory, unmounted after the test. Throws (never skips) when it cannot. */
function smallDisk(t: TestContext, size: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tazamun-batch-disk', dir], {
      stdio: 'pipe',
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const why = (err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message;
    throw new Error(`this test mounts a 48 MB tmpfs and needs root (CAP_SYS_ADMIN): ${why}`);
  }
  t.after(() => {
    execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

test('item 3: free space is looked at again as parts arrive: 507 before the disk fills', async (t) => {
  const disk = smallDisk(t, '48m');
  const dataDir = join(disk, 'data');
  const { app } = await createJobsTestApp(t, { concurrency: 0 }, { dataDir, minFreeDiskBytes: 20 * MB });
  const u = await approvedUser(app);
  const pid = await project(app, u.access);
  // 36 MB of parts on a 48 MB disk that must keep 20 MB free: the door lets it in, the parts do not fit
  const parts: Part[] = [{ name: 'language', value: 'eng' }];
  for (let k = 0; k < 6; k++)
    parts.push({ name: 'audio', filename: `p${k}.wav`, content: Buffer.alloc(6 * MB, k) });
  const res = await batch(app, u.access, pid, parts);
  expectError(res, 507, 'insufficient_storage');
  await nothingStored(app, dataDir, u.id, u.access);
  // the space is back (the parts were removed): the same user's normal batch is accepted
  const ok = await batch(app, u.access, pid, [
    { name: 'language', value: 'eng' },
    { name: 'audio', filename: 'a.wav', content: A.wav },
    { name: 'text_file', filename: 'a.lab', content: Buffer.from(A.text) },
  ]);
  assert.equal(ok.statusCode, 202, ok.body);
});
