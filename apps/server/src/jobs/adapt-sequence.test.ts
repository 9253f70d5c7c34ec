// Adaptation jobs among alignment jobs on ONE worker (issue 31): three recordings aligned, an upload
// refused for its bounds, the project's model adapted (its own engine thread, stopped afterwards), a
// job whose engine faults twice (its threads retired, reported, its unit given back), then an upload to
// the project aligned with the adapted model and one outside it with the language's own model. Nothing
// one job does may break the jobs after it, and only the hook's faults retire a thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ENGINE_FAULT_MARKER } from '@tazamun/aligner/host';
import type { EngineFaultHook } from '@tazamun/aligner/host';
import { approvedUser, bearer, expectError } from '@tazamun/server/testing/test-app';
import { jobRowsFinal } from '@tazamun/server/testing/job-rows';
import { createJobsTestApp, tempDir, upload, waitForStatus } from '@tazamun/server/testing/jobs-test-app';
import {
  CORPUS_SPEAKERS,
  HELD_OUT_SPEAKER,
  speakerRecording,
} from '@tazamun/server/testing/adaptation-corpus';
import {
  adaptProject,
  alignRecording,
  createProject,
  sendRecording,
  useAdaptedModel,
} from '@tazamun/server/testing/model-flow';

test('one worker: alignments, an adaptation, engine faults, then alignments with and without the model', async (t) => {
  const hook: EngineFaultHook = { faults: 0 };
  const { app } = await createJobsTestApp(
    t,
    // the time limit is a guard here, not a speed requirement: the shared machine may be slow
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
  const dir = tempDir(t);
  const project = await createProject(app, u.access, 'One worker');

  for (const s of CORPUS_SPEAKERS) await alignRecording(app, u.access, speakerRecording(dir, s), project);
  assert.equal(await used(), 3);
  const threads = app.jobs.engine.stats.started;

  // refused at upload for its bounds: no unit, no job
  const corpus0 = speakerRecording(dir, CORPUS_SPEAKERS[0]);
  const big = await upload(app, u.access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: 'word '.repeat(400_000) },
    { name: 'project_id', value: project },
    { name: 'audio', filename: 'big.wav', content: readFileSync(corpus0.wav) },
  ]);
  expectError(big, 422, 'transcript_too_long');

  // the adaptation runs on a thread of its own, stopped once it ends: no thread retired for it
  const model = await adaptProject(app, u.access, project);
  assert.equal(model.status, 'completed', JSON.stringify(model.error));
  assert.deepEqual(app.jobs.engine.stats, { started: threads + 1, retired: 0 });
  assert.equal(await used(), 3);
  await useAdaptedModel(app, u.access, project, true);

  // an engine fault on both runs of an upload to the project: reported, its unit given back
  hook.faults = 2;
  const held = speakerRecording(dir, HELD_OUT_SPEAKER);
  const broken = await sendRecording(app, u.access, held, project, `${ENGINE_FAULT_MARKER}${held.text}`);
  const failed = await waitForStatus(app, u.access, broken);
  assert.equal(failed.status, 'failed');
  assert.equal((failed.error as { code: string }).code, 'engine_failed');
  assert.equal(await used(), 3, 'the failed upload gave its unit back');
  assert.equal(app.jobs.engine.stats.retired, 2);

  // the worker goes on: the project's upload aligns with the model, another with the language's own
  const adapted = await alignRecording(app, u.access, held, project);
  assert.equal(adapted.adaptedModel, model.name);
  assert.equal(adapted.result.engine.model, model.name);
  const plain = await alignRecording(app, u.access, held);
  assert.equal(plain.adaptedModel, null);
  assert.equal(plain.result.engine.model, model.figures!.base_model);
  assert.equal(await used(), 5);
  assert.equal(app.jobs.engine.stats.retired, 2, 'only the hook faults retired a thread');

  // every run is on the rows: the hook's faults are the only failures and retries
  const rows = await db
    .selectFrom('jobs')
    .select(['id', 'kind', 'alignment_id', 'model_id', 'attempts', 'failures', 'status'])
    .where('user_id', '=', u.id)
    .orderBy('created_at')
    .execute();
  await jobRowsFinal(
    db,
    rows.map((r) => r.id),
  );
  const final = await db
    .selectFrom('jobs')
    .select(['kind', 'alignment_id', 'model_id', 'attempts', 'failures', 'status'])
    .where('user_id', '=', u.id)
    .orderBy('created_at')
    .execute();
  assert.deepEqual(
    final.map((r) => [r.kind, r.status, Number(r.attempts), Number(r.failures)]),
    [
      ['align', 'completed', 1, 0],
      ['align', 'completed', 1, 0],
      ['align', 'completed', 1, 0],
      ['adapt', 'completed', 1, 0],
      ['align', 'failed', 2, 2],
      ['align', 'completed', 1, 0],
      ['align', 'completed', 1, 0],
    ],
  );
  assert.equal(final[3]!.model_id, model.id);
  assert.equal(final[3]!.alignment_id, null);
});
