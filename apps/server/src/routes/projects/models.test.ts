// A project's adapted models (issue 31, ADR 0070), end to end on real recordings and the real engine:
// refusals that cost nothing (another user's project, too little speech, an unsupported language, a
// second adaptation at once, the storage limit), an adaptation from three TIMIT speakers with one
// hand-corrected revision as ground truth (no quota unit), a later upload to the project aligned with
// the adapted model (its result names it in engine.model), and the model's deletion, after which the
// earlier result keeps the name and new uploads align with the language's own model again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { AdaptedModel, ModelList } from '@tazamun/contracts/models';
import { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { RealignStatus } from '@tazamun/contracts/revisions';
import { approvedUser, bearer, expectError } from '@tazamun/server/testing/test-app';
import { createJobsTestApp, tempDir, upload, waitForStatus } from '@tazamun/server/testing/jobs-test-app';
import {
  CORPUS_SPEAKERS,
  HELD_OUT_SPEAKER,
  speakerRecording,
} from '@tazamun/server/testing/adaptation-corpus';
import type { SpeakerRecording } from '@tazamun/server/testing/adaptation-corpus';
import { until } from '@tazamun/server/testing/until';

async function send(app: FastifyInstance, access: string, r: SpeakerRecording, projectId?: string) {
  const res = await upload(app, access, [
    { name: 'language', value: 'eng' },
    { name: 'text', value: r.text },
    ...(projectId ? [{ name: 'project_id', value: projectId }] : []),
    { name: 'audio', filename: `${r.speaker}.wav`, content: readFileSync(r.wav), contentType: 'audio/wav' },
  ]);
  assert.equal(res.statusCode, 202, res.body);
  const id = res.json().id as string;
  const done = await waitForStatus(app, access, id);
  assert.equal(done.status, 'completed', JSON.stringify(done));
  const d = await app.inject({ url: `/api/alignments/${id}/`, headers: bearer(access) });
  return { id, detail: d.json() as { adapted_model: string | null; result: unknown } };
}

async function projectAlignments(app: FastifyInstance, access: string, project: string): Promise<string[]> {
  const res = await app.inject({
    url: `/api/alignments/?project=${project}&page_size=100`,
    headers: bearer(access),
  });
  assert.equal(res.statusCode, 200, res.body);
  return (res.json().results as { id: string }[]).map((a) => a.id);
}

test('a project adapts its model, a later upload aligns with it, and the model is deleted', async (t) => {
  const { app } = await createJobsTestApp(t, { concurrency: 1, timeoutBaseMs: 1_800_000 });
  const db = app.deps.db;
  const owner = await approvedUser(app);
  const other = await approvedUser(app);
  await db.updateTable('users').set({ daily_limit: 100 }).where('id', '=', owner.id).execute();
  const used = async () =>
    (await app.inject({ url: '/api/auth/quota/', headers: bearer(owner.access) })).json().quota
      .used_today as number;
  const created = await app.inject({
    method: 'POST',
    url: '/api/projects/',
    payload: { name: 'TIMIT speakers' },
    headers: bearer(owner.access),
  });
  assert.equal(created.statusCode, 201, created.body);
  const project = created.json().id as string;
  const models = `/api/projects/${project}/models/`;
  const start = (access: string, language = 'eng', lang = 'en') =>
    app.inject({
      method: 'POST',
      url: models,
      payload: { language },
      headers: { ...bearer(access), 'accept-language': lang },
    });

  // refusals before anything is written: another user's project, too little speech, a bad language
  expectError(await start(other.access), 404, 'not_found');
  expectError(await app.inject({ url: models, headers: bearer(other.access) }), 404, 'not_found');
  const empty = expectError(await start(owner.access, 'eng', 'fr'), 422, 'corpus_too_small');
  assert.equal(empty.seconds, 0);
  assert.equal(empty.needed, 60);
  assert.match(empty.detail as string, /0 s de parole exploitable.*au moins 60 s/);
  expectError(await start(owner.access, 'zz'), 400, 'adaptation_unsupported');

  const dir = tempDir(t);
  const corpus = CORPUS_SPEAKERS.map((s) => speakerRecording(dir, s));
  // one recording first: still too little speech, and the answer says how much there is
  const first = await send(app, owner.access, corpus[0]!, project);
  const small = expectError(await start(owner.access), 422, 'corpus_too_small');
  assert.equal(small.seconds, Math.floor(corpus[0]!.duration));
  assert.match(
    small.detail as string,
    new RegExp(`gave ${Math.floor(corpus[0]!.duration)} s of usable speech`),
  );
  for (const r of corpus.slice(1)) await send(app, owner.access, r, project);
  assert.equal(await used(), 3);

  // a person corrects the first recording: its revision is ground truth for the adaptation
  const latest = AlignmentResult.parse(first.detail.result);
  const word = latest.words.find((w) => w.start !== null && w.end !== null && w.end - w.start > 0.1)!;
  const saved = await app.inject({
    method: 'POST',
    url: `/api/alignments/${first.id}/revisions/`,
    payload: { base_revision: 1, words: [{ index: word.index, start: word.start! + 0.01 }] },
    headers: bearer(owner.access),
  });
  assert.equal(saved.statusCode, 201, saved.body);
  const corrected = AlignmentResult.parse(saved.json().result).words[word.index]!;
  assert.equal(corrected.hand_corrected, true);

  // the adaptation: queued at once, one at a time, no quota unit
  const startRes = await start(owner.access);
  assert.equal(startRes.statusCode, 202, startRes.body);
  const queued = AdaptedModel.parse(startRes.json());
  assert.equal(queued.language, 'eng');
  assert.ok(['queued', 'processing'].includes(queued.status));
  expectError(await start(owner.access), 409, 'adaptation_running');
  expectError(
    await app.inject({ method: 'POST', url: `${models}${queued.id}/rerun/`, headers: bearer(owner.access) }),
    409,
    'model_not_ready',
  );
  const progress: number[] = [];
  const model = await until('the adaptation to end', async () => {
    const res = await app.inject({ url: `${models}${queued.id}/`, headers: bearer(owner.access) });
    assert.equal(res.statusCode, 200, res.body);
    const m = AdaptedModel.parse(res.json());
    progress.push(m.progress);
    return m.status !== 'queued' && m.status !== 'processing' && m;
  });
  assert.equal(model.status, 'completed', JSON.stringify(model.error));
  assert.equal(model.progress, 100);
  assert.ok(
    progress.some((p) => p > 1 && p < 100),
    `progress was followed: ${progress.join(' ')}`,
  );
  const f = model.figures!;
  assert.equal(f.recordings, 3);
  assert.ok(f.seconds > 80, `${f.seconds} s`);
  assert.ok(f.ground_truth_words > 50, `${f.ground_truth_words} words as ground truth`);
  assert.ok(f.iterations.length >= 2 && f.iterations.length <= 3, JSON.stringify(f.iterations));
  assert.ok(f.iterations[1]!.log_likelihood > f.iterations[0]!.log_likelihood, JSON.stringify(f.iterations));
  assert.deepEqual(f.phones_added, [], 'English keeps its phone set');
  assert.ok(f.size_bytes > 1_000_000, `${f.size_bytes} bytes`);
  assert.match(model.name!, /^cmusphinx-en-us-.*\+[0-9a-f]{12}$/);
  assert.equal(model.in_use, false, 'the project setting is off');
  assert.equal(await used(), 3, 'an adaptation takes no quota unit');
  // its files are in the store, under the owner's folder; the corrected revision also taught it where
  // people put word edges (tazamun-edges.json, ADR 0081)
  const stored = await app.deps.files.list(owner.id);
  const modelFiles = stored.filter((s) => s.path.startsWith(`models/${model.id}/`));
  assert.deepEqual(modelFiles.map((s) => s.path.split('/').pop()).sort(), [
    'feat_params.json',
    'mdef',
    'means',
    'mixture_weights',
    'tazamun-edges.json',
    'tazamun-model.json',
    'transition_matrices',
    'variances',
  ]);
  assert.equal(
    modelFiles.reduce((a, s) => a + s.size, 0),
    f.size_bytes,
  );
  const list = ModelList.parse((await app.inject({ url: models, headers: bearer(owner.access) })).json());
  assert.equal(list.count, 1);
  assert.equal(list.storage.used_bytes, f.size_bytes);
  assert.equal(list.storage.limit_bytes, 200 * 1024 * 1024);

  // the setting on: a new upload to the project (another speaker) aligns with the model
  const on = await app.inject({
    method: 'PATCH',
    url: `/api/projects/${project}/`,
    payload: { use_adapted_model: true },
    headers: bearer(owner.access),
  });
  assert.equal(on.statusCode, 200, on.body);
  assert.equal(on.json().use_adapted_model, true);
  const inUse = AdaptedModel.parse(
    (await app.inject({ url: `${models}${model.id}/`, headers: bearer(owner.access) })).json(),
  );
  assert.equal(inUse.in_use, true);
  const heldOut = speakerRecording(dir, HELD_OUT_SPEAKER);
  const adapted = await send(app, owner.access, heldOut, project);
  assert.equal(adapted.detail.adapted_model, model.name);
  const adaptedResult = AlignmentResult.parse(adapted.detail.result);
  assert.equal(adaptedResult.engine.model, model.name);
  assert.ok(adaptedResult.words.filter((w) => w.status === 'aligned').length > 50);
  // outside the project, the language's own model
  const plain = await send(app, owner.access, heldOut);
  assert.equal(plain.detail.adapted_model, null);
  assert.equal(AlignmentResult.parse(plain.detail.result).engine.model, f.base_model);

  // the project re-run with its model: every English recording re-aligned whole, as a new revision
  // that keeps the word a person corrected
  const rerun = await app.inject({
    method: 'POST',
    url: `${models}${model.id}/rerun/`,
    headers: bearer(owner.access),
  });
  assert.equal(rerun.statusCode, 202, rerun.body);
  assert.deepEqual(rerun.json(), { queued: 4, busy: 0 });
  const inProject = [first.id, ...(await projectAlignments(app, owner.access, project))].filter(
    (id, i, all) => all.indexOf(id) === i,
  );
  assert.equal(inProject.length, 4);
  for (const id of inProject) {
    const done = await until(`the re-run of ${id}`, async () => {
      const s = RealignStatus.parse(
        (await app.inject({ url: `/api/alignments/${id}/realign/`, headers: bearer(owner.access) })).json(),
      );
      return s.status !== 'queued' && s.status !== 'processing' && s;
    });
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const d = (await app.inject({ url: `/api/alignments/${id}/`, headers: bearer(owner.access) })).json();
    const r = AlignmentResult.parse(d.result);
    assert.equal(r.engine.model, model.name, 'the new revision is the model’s');
    assert.equal(r.revision!.author, 'realign');
    assert.equal(d.adapted_model, model.name);
    if (id === first.id) {
      assert.equal(r.revision!.number, 3);
      const kept = r.words[word.index]!;
      assert.deepEqual([kept.start, kept.end], [corrected.start, corrected.end], 'the correction is kept');
      assert.equal(kept.hand_corrected, true);
    } else assert.equal(r.revision!.number, 2);
  }
  assert.equal(await used(), 5, 'a re-run takes no quota unit');

  // the storage limit: no room for another model is refused before anything is written
  const limit = app.jobs.config.modelStorageLimitBytes;
  app.jobs.config.modelStorageLimitBytes = f.size_bytes + 1024;
  const full = expectError(await start(owner.access), 409, 'model_storage_full');
  assert.match(full.detail as string, /take \d+(\.\d)? MB of the \d+(\.\d)? MB/);
  app.jobs.config.modelStorageLimitBytes = limit;
  assert.equal((await db.selectFrom('models').select('id').execute()).length, 1, 'nothing was written');

  // another user cannot see or delete it
  expectError(
    await app.inject({ method: 'DELETE', url: `${models}${model.id}/`, headers: bearer(other.access) }),
    404,
    'not_found',
  );
  // deleted: files and rows go; the result made with it keeps its name
  const del = await app.inject({
    method: 'DELETE',
    url: `${models}${model.id}/`,
    headers: bearer(owner.access),
  });
  assert.equal(del.statusCode, 204, del.body);
  const after = ModelList.parse((await app.inject({ url: models, headers: bearer(owner.access) })).json());
  assert.equal(after.count, 0);
  assert.equal(after.storage.used_bytes, 0);
  assert.deepEqual(
    (await app.deps.files.list(owner.id)).filter((s) => s.path.startsWith('models/')),
    [],
    'no file of the model is left',
  );
  const kept = (
    await app.inject({ url: `/api/alignments/${adapted.id}/`, headers: bearer(owner.access) })
  ).json() as { adapted_model: string | null; result: unknown };
  assert.equal(kept.adapted_model, model.name);
  assert.equal(AlignmentResult.parse(kept.result).engine.model, model.name);
  // a new upload to the project, the setting still on: the language's own model again
  const again = await send(app, owner.access, heldOut, project);
  assert.equal(again.detail.adapted_model, null);
  assert.equal(AlignmentResult.parse(again.detail.result).engine.model, f.base_model);
  assert.equal(await used(), 6);
});
