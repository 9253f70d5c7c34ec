// A corpus in, a corpus out: a batch of recordings aligned by the real engine, then the project's zip of
// TextGrids (one per completed alignment, named after its source) with its CSV summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { ManualClock } from '../../clock.ts';
import { alignmentFile } from '../../jobs/alignment-files.ts';
import { approvedUser, bearer, expectError } from '@tazamun/server/testing/test-app';
import { readZip } from '@tazamun/server/testing/zip-reader';
import { writeZip } from '@tazamun/server/testing/zip-writer';
import {
  EVAL_DIR,
  createJobsTestApp,
  ffmpeg,
  multipart,
  tempDir,
  waitForStatus,
} from '@tazamun/server/testing/jobs-test-app';
import { loadConfig } from '../../config.ts';

const clip = (name: string) => {
  const base = join(EVAL_DIR, 'timit-dev', name);
  if (!existsSync(`${base}.wav`)) throw new Error(`missing test audio ${base}.wav`);
  return {
    wav: readFileSync(`${base}.wav`),
    text: (JSON.parse(readFileSync(`${base}.json`, 'utf8')) as { text: string }).text,
  };
};

const exportZip = (app: FastifyInstance, access: string, pid: string, format: string, query = '') =>
  app.inject({ url: `/api/projects/${pid}/export/${format}/${query}`, headers: bearer(access) });

test('the project export: one file per completed alignment named after its source, and a CSV summary', async (t) => {
  // this app only enqueues; a worker joins once the third recording is damaged in storage
  const { app, config } = await createJobsTestApp(t, { concurrency: 0 });
  const u = await approvedUser(app);
  const pid = (
    await app.inject({
      method: 'POST',
      url: '/api/projects/',
      headers: bearer(u.access),
      payload: { name: 'TIMIT / dr1' },
    })
  ).json().id as string;
  const a = clip('dr1-fvmh0_sa1');
  const b = clip('dr1-fvmh0_sa2');
  const media = tempDir(t);
  ffmpeg(['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '1.5', join(media, 'silence.wav')]);
  const zip = writeZip([
    { name: 'spk0/utt0.wav', content: a.wav },
    { name: 'spk0/utt0.lab', content: Buffer.from(a.text) },
    { name: 'spk1/utt0.wav', content: b.wav },
    { name: 'spk1/utt0.txt', content: Buffer.from(b.text) },
    { name: 'spk2/quiet.wav', content: readFileSync(join(media, 'silence.wav')) },
    { name: 'spk2/quiet.lab', content: Buffer.from('nothing to hear') },
  ]);
  const { payload, headers } = multipart([
    { name: 'language', value: 'eng' },
    { name: 'archive', filename: 'corpus.zip', content: zip },
  ]);
  const res = await app.inject({
    method: 'POST',
    url: `/api/projects/${pid}/batch/`,
    payload,
    headers: { ...headers, ...bearer(u.access) },
  });
  assert.equal(res.statusCode, 202, res.body);
  const ids = res.json().alignments.map((x: { id: string }) => x.id) as string[];
  // the quiet recording's file is damaged before any worker reads it, so its job fails and the export
  // leaves it out (silence itself completes with a no_speech verdict)
  await app.deps.files.store.put(
    app.deps.files.key(u.id, alignmentFile(ids[2]!, 'audio.wav')),
    Buffer.from('RIFF this is not audio'),
    { contentType: 'audio/wav' },
  );
  const worker = await buildApp(config, {
    clock: new ManualClock(new Date().toISOString()),
    logger: false,
    jobs: { ...loadConfig({}).jobs, concurrency: 1, leaseMs: 5000, pollMs: 200, demoMediaDir: null },
  });
  t.after(() => worker.close());
  await worker.ready();
  const statuses = [];
  for (const id of ids) statuses.push((await waitForStatus(app, u.access, id)).status);
  assert.deepEqual(statuses, ['completed', 'completed', 'failed']);

  const out = await exportZip(app, u.access, pid, 'textgrid', '?phone_tier=false&tier_name=mots');
  assert.equal(out.statusCode, 200, out.body);
  assert.equal(out.headers['content-type'], 'application/zip');
  assert.match(String(out.headers['content-disposition']), /TIMIT _ dr1-textgrid\.zip/);
  const files = readZip(out.rawPayload);
  assert.deepEqual([...files.keys()], ['spk0/utt0.TextGrid', 'spk1/utt0.TextGrid', 'summary.csv']);
  for (const [name, text] of [
    ['spk0/utt0.TextGrid', a.text],
    ['spk1/utt0.TextGrid', b.text],
  ] as const) {
    const tg = files.get(name)!.toString('utf8');
    assert.match(tg, /^File type = "ooTextFile"/);
    assert.match(tg, /size = 1\b/, `${name}: the phone tier was turned off`);
    assert.match(tg, /name = "mots"/);
    const first = text
      .split(/\s+/)[0]!
      .toLowerCase()
      .replace(/[^a-z']/g, '');
    assert.ok(tg.toLowerCase().includes(`"${first}"`), `${name} holds "${first}"`);
  }
  const rows = await app.deps.db
    .selectFrom('alignments')
    .selectAll()
    .where('status', '=', 'completed')
    .orderBy('file_name')
    .execute();
  const r4 = (x: number | null) => (x === null ? '' : String(Math.round(x * 10_000) / 10_000));
  assert.equal(
    files.get('summary.csv')!.toString('utf8'),
    [
      'file,duration,words,coverage,confidence,wer',
      ...rows.map((r, k) =>
        [
          ['spk0/utt0.TextGrid', 'spk1/utt0.TextGrid'][k],
          String(Math.round(r.duration! * 1000) / 1000),
          String(r.words),
          r4(r.coverage),
          r4(r.confidence),
          r4(r.wer),
        ].join(','),
      ),
      '',
    ].join('\r\n'),
  );
  assert.deepEqual(
    rows.map((r) => [r.words, r.coverage]),
    [
      [a.text.split(/\s+/).length, 1],
      [b.text.split(/\s+/).length, 1],
    ],
  );

  // the other formats carry the same names; CSV with tab separators becomes .tsv
  const vtt = readZip((await exportZip(app, u.access, pid, 'vtt')).rawPayload);
  assert.deepEqual([...vtt.keys()], ['spk0/utt0.vtt', 'spk1/utt0.vtt', 'summary.csv']);
  assert.match(vtt.get('spk0/utt0.vtt')!.toString(), /^WEBVTT/);
  const tsv = readZip((await exportZip(app, u.access, pid, 'csv', '?separator=tab')).rawPayload);
  assert.deepEqual([...tsv.keys()], ['spk0/utt0.tsv', 'spk1/utt0.tsv', 'summary.csv']);

  // another user's project is unknown; a bad format or option is a validation error
  const other = await approvedUser(app);
  expectError(await exportZip(app, other.access, pid, 'textgrid'), 404, 'not_found');
  expectError(await exportZip(app, u.access, pid, 'docx'), 400, 'validation_error');
  expectError(await exportZip(app, u.access, pid, 'csv', '?separator=pipe'), 400, 'validation_error');
});

test('an empty project exports a zip holding only the summary header', async (t) => {
  const { app } = await createJobsTestApp(t, { concurrency: 0 });
  const u = await approvedUser(app);
  const pid = (
    await app.inject({
      method: 'POST',
      url: '/api/projects/',
      headers: bearer(u.access),
      payload: { name: 'Empty' },
    })
  ).json().id as string;
  const out = await exportZip(app, u.access, pid, 'json');
  assert.equal(out.statusCode, 200);
  const files = readZip(out.rawPayload);
  assert.deepEqual(
    [...files.entries()].map(([k, v]) => [k, v.toString()]),
    [['summary.csv', 'file,duration,words,coverage,confidence,wer\r\n']],
  );
});
