// Issue 11's "done when": one server app with the demo gallery seeded and ONE worker thread runs, in a
// row, English, Arabic, French and IPA jobs; a 2 MB transcript for a 3 s clip and a 1 Hz WAV (refused at
// upload, no unit taken); jobs that trip an engine fault on purpose (the test hook: recycled, retried,
// reported); and then every legitimate job again. Nothing one job does may break the jobs after it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_USER_ID, seedDemos } from '../demos/seed-demos.ts';
import { approvedUser, bearer, expectError } from '@tazamun/server/testing/test-app';
import { jobRowsFinal } from '@tazamun/server/testing/job-rows';
import { pcmWav } from '@tazamun/server/testing/wav';
import {
  EVAL_DIR,
  createJobsTestApp,
  evalClip,
  ffmpeg,
  tempDir,
  upload,
  waitForStatus,
} from '@tazamun/server/testing/jobs-test-app';
import type { Part } from '@tazamun/server/testing/jobs-test-app';
import { DEFAULT_DEMO_MEDIA_DIR } from './job-config.ts';
import { ENGINE_FAULT_MARKER } from '@tazamun/aligner/host';
import type { EngineFaultHook } from '@tazamun/aligner/host';

interface Clip {
  name: string;
  language: string;
  wav: string;
  text: string;
  inputKind?: 'ipa';
}

function evalItem(name: string, language: string, file: string, inputKind?: 'ipa'): Clip {
  const base = join(EVAL_DIR, file);
  if (!existsSync(`${base}.wav`)) throw new Error(`missing test audio ${base}.wav`);
  const { text } = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as { text: string };
  return { name, language, wav: `${base}.wav`, text, inputKind };
}

test(
  'one worker thread: demos, four languages, refused bounds and engine faults in a row, then every job again',
  { timeout: 1_800_000 },
  async (t) => {
    if (!existsSync(DEFAULT_DEMO_MEDIA_DIR)) throw new Error(`missing demo media ${DEFAULT_DEMO_MEDIA_DIR}`);
    const hook: EngineFaultHook = { faults: 0 };
    const { app } = await createJobsTestApp(
      t,
      // the job time limit is a guard here, not a speed requirement: the shared machine may be slow
      { concurrency: 1, retryBackoffMs: 300, timeoutBaseMs: 1_800_000 },
      {},
      { engineFaultHook: hook },
    );
    const db = app.deps.db;
    const u = await approvedUser(app);
    await db.updateTable('users').set({ daily_limit: 100 }).where('id', '=', u.id).execute();
    const used = async () =>
      (await app.inject({ url: '/api/auth/quota/', headers: bearer(u.access) })).json().quota
        .used_today as number;

    // the demo gallery, aligned by the same single thread (English, French, then Arabic)
    const seeded = await seedDemos(app, DEFAULT_DEMO_MEDIA_DIR);
    assert.deepEqual(seeded.created, ['en-librivox-austen', 'fr-librivox-hugo', 'ar-synthetic-19']);
    const giveUp = Date.now() + 900_000;
    for (;;) {
      const rows = await db
        .selectFrom('alignments')
        .select(['title', 'status', 'error_code'])
        .where('user_id', '=', DEMO_USER_ID)
        .execute();
      if (rows.every((r) => r.status === 'completed' || r.status === 'failed')) {
        assert.deepEqual(
          rows.map((r) => [r.status, r.error_code]),
          [
            ['completed', null],
            ['completed', null],
            ['completed', null],
          ],
          JSON.stringify(rows),
        );
        break;
      }
      if (Date.now() > giveUp) throw new Error(`demos never aligned: ${JSON.stringify(rows)}`);
      await new Promise((r) => setTimeout(r, 250));
    }

    const clips: Clip[] = [
      { name: 'English', language: 'eng', ...evalClip() },
      evalItem('Arabic', 'ara', 'ar-synthetic/arsyn_01'),
      evalItem('French', 'fra', 'fr-librivox-mfa/VH_dernierjour_chapI_03'),
      evalItem('IPA', 'aeb', 'ar-voxangeles-aeb/aeb-000-000', 'ipa'),
    ];
    const jobs: { name: string; id: string }[] = [];
    const send = async (c: Clip, text = c.text) => {
      const parts: Part[] = [
        { name: 'language', value: c.language },
        { name: 'text', value: text },
        { name: 'audio', filename: `${c.name}.wav`, content: readFileSync(c.wav) },
      ];
      if (c.inputKind) parts.push({ name: 'input_kind', value: c.inputKind });
      const res = await upload(app, u.access, parts);
      assert.equal(res.statusCode, 202, `${c.name}: ${res.body}`);
      const id = res.json().id as string;
      jobs.push({ name: c.name, id });
      return id;
    };
    const align = async (c: Clip) => {
      const id = await send(c);
      const done = await waitForStatus(app, u.access, id);
      assert.equal(done.status, 'completed', `${c.name}: ${JSON.stringify(done)}`);
      const d = (await app.inject({ url: `/api/alignments/${id}/`, headers: bearer(u.access) })).json();
      const aligned = (d.result.words as { status: string }[]).filter((w) => w.status === 'aligned');
      assert.ok(aligned.length >= 1, `${c.name}: no word aligned`);
    };

    for (const c of clips) await align(c);
    assert.equal(await used(), 4);

    // a 2 MB transcript for a 3 s clip: refused at upload, no unit taken
    const dir = tempDir(t);
    const three = join(dir, 'three.wav');
    ffmpeg(['-i', clips[0]!.wav, '-t', '3', three]);
    const big = await upload(app, u.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: 'word '.repeat(400_000) },
      { name: 'audio', filename: 'three.wav', content: readFileSync(three) },
    ]);
    expectError(big, 422, 'transcript_too_long');
    // a WAV at 1 Hz claiming one hour: refused at upload
    const slow = await upload(app, u.access, [
      { name: 'language', value: 'eng' },
      { name: 'text', value: clips[0]!.text },
      { name: 'audio', filename: 'slow.wav', content: pcmWav(3600, () => 0, 1) },
    ]);
    expectError(slow, 422, 'audio_sample_rate_too_low');
    assert.equal(await used(), 4, 'the refused uploads took no unit');

    // an engine fault on the first run only: the thread is retired, the job retried on a fresh one
    hook.faults = 1;
    const recovered = await send(clips[1]!, `${ENGINE_FAULT_MARKER}${clips[1]!.text}`);
    assert.equal((await waitForStatus(app, u.access, recovered)).status, 'completed');
    // an engine fault on both runs: reported with its cause, the unit given back
    hook.faults = 2;
    const broken = await send(clips[0]!, `${ENGINE_FAULT_MARKER}${clips[0]!.text}`);
    const failed = await waitForStatus(app, u.access, broken);
    assert.equal(failed.status, 'failed');
    assert.deepEqual(failed.error, {
      code: 'engine_failed',
      detail:
        'The alignment engine failed on this job, also on a fresh engine: memory access out of bounds (test hook). Your quota unit was given back; please try again later.',
      quota_refunded: true,
    });
    assert.equal(await used(), 5);

    // every legitimate job after them completes, on the same single worker
    for (const c of clips) await align(c);
    assert.equal(await used(), 9);

    // each run is on the rows: the hook's three faults are the only failures and retries
    const rows = await db
      .selectFrom('jobs')
      .innerJoin('alignments', 'alignments.id', 'jobs.alignment_id')
      .select(['jobs.id', 'jobs.alignment_id', 'jobs.failures', 'jobs.attempts'])
      .where('alignments.user_id', '=', u.id)
      .execute();
    await jobRowsFinal(
      db,
      rows.map((r) => r.id),
    );
    const runs = new Map(rows.map((r) => [r.alignment_id, [Number(r.attempts), Number(r.failures)]]));
    for (const j of jobs) {
      const expected = j.id === recovered ? [2, 1] : j.id === broken ? [2, 2] : [1, 0];
      assert.deepEqual(runs.get(j.id), expected, `${j.name} ${j.id}: [attempts, failures]`);
    }
    assert.equal(app.jobs.engine.stats.retired, 3, 'only the hook faults retired a thread');
  },
);
