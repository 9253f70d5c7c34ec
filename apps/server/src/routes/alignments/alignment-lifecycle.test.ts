// One completed alignment through every owner route, the exports read back by independent parsers,
// sharing, projects, deletion, and another user's 404 on every route.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  parseCsv,
  parseSrt,
  parseTextGrid,
  parseVtt,
  parseXml,
} from '@tazamun/aligner/testing/format-parsers';
import { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { approvedUser, bearer, expectError } from '@tazamun/server/testing/test-app';
import { createJobsTestApp, evalClip, upload, waitForStatus } from '@tazamun/server/testing/jobs-test-app';

test('an alignment from upload to deletion, seen only by its owner', async (t) => {
  const { app, dir } = await createJobsTestApp(t);
  const owner = await approvedUser(app);
  const other = await approvedUser(app);
  const clip = evalClip();
  const wav = readFileSync(clip.wav);

  const res = await upload(app, owner.access, [
    { name: 'language', value: 'eng' },
    { name: 'title', value: 'Dark suit — TIMIT' },
    { name: 'precision', value: 'high' },
    { name: 'text', value: clip.text },
    { name: 'audio', filename: 'clip.wav', content: wav, contentType: 'audio/wav' },
  ]);
  assert.equal(res.statusCode, 202, res.body);
  const created = res.json();
  assert.equal(created.status, 'queued');
  assert.equal(created.options.precision, 'high');
  const id = created.id as string;

  await t.test('server-sent events follow the job to its end', async () => {
    const sse = await app.inject({
      method: 'GET',
      url: `/api/alignments/${id}/events/?access_token=${owner.access}`,
    });
    assert.equal(sse.statusCode, 200);
    assert.match(String(sse.headers['content-type']), /^text\/event-stream/);
    const events = [...sse.body.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map((m) => ({
      event: m[1],
      data: JSON.parse(m[2]!) as { status: string; progress: number; step: string | null },
    }));
    assert.ok(events.length >= 2, sse.body);
    const last = events.at(-1)!;
    assert.equal(last.event, 'end');
    assert.equal(last.data.status, 'completed');
    assert.equal(last.data.progress, 100);
    const reconnect = await app.inject({
      method: 'GET',
      url: `/api/alignments/${id}/events/`,
      headers: { ...bearer(owner.access), 'last-event-id': 'end' },
    });
    assert.equal(reconnect.statusCode, 204, 'a browser that saw the end is told to stop reconnecting');
    const progress = events.filter((e) => e.event === 'progress').map((e) => e.data.progress);
    assert.deepEqual(
      progress,
      [...progress].sort((a, b) => a - b),
      'progress never goes back',
    );
  });

  const progress = await waitForStatus(app, owner.access, id);
  assert.equal(progress.status, 'completed', JSON.stringify(progress));

  const detail = (await app.inject({ url: `/api/alignments/${id}/`, headers: bearer(owner.access) })).json();
  AlignmentResult.parse(detail.result);
  assert.equal(detail.title, 'Dark suit — TIMIT');
  assert.equal(detail.original_text, clip.text);
  assert.equal(typeof detail.processed_text, 'string');
  assert.equal(detail.detected_language, 'eng');
  assert.equal(detail.words, detail.result.words.length);
  assert.ok(Math.abs(detail.duration - clip.duration) < 0.05, `duration ${detail.duration}`);
  for (const k of ['confidence', 'coverage', 'alignment_time', 'processing_speed'])
    assert.equal(typeof detail[k], 'number', k);
  // every word is placed with its phones, the first starting with it
  for (const w of detail.result.words as { word: string; start: number; phones: { start: number }[] }[])
    assert.equal(w.phones[0]?.start, w.start, w.word);

  await t.test('list: pagination, filters and search', async () => {
    await upload(app, owner.access, [
      { name: 'language', value: 'fra' },
      { name: 'text', value: 'bonjour' },
      { name: 'audio', filename: 'autre.wav', content: wav },
    ]);
    const list = async (qs: string) =>
      (await app.inject({ url: `/api/alignments/?${qs}`, headers: bearer(owner.access) })).json();
    const all = await list('page_size=1');
    assert.equal(all.count, 2);
    assert.equal(all.results.length, 1);
    assert.equal(all.next, 2);
    assert.equal((await list('language=eng')).count, 1);
    assert.equal((await list('q=dark%20suit')).results[0].id, id);
    assert.equal((await list('q=greasy')).count, 1, 'search reaches the transcript');
    assert.equal((await list('status=completed&language=eng')).count, 1);
    assert.equal((await list('from=2000-01-01&to=2000-01-02')).count, 0);
    const bad = await app.inject({ url: '/api/alignments/?language=english', headers: bearer(owner.access) });
    expectError(bad, 400, 'validation_error');
    assert.equal((await list('')).results.length, 2);
    const stranger = (await app.inject({ url: '/api/alignments/', headers: bearer(other.access) })).json();
    assert.equal(stranger.count, 0);
  });

  await t.test('audio for the player honours byte ranges', async () => {
    const full = await app.inject({ url: `/api/alignments/${id}/audio/`, headers: bearer(owner.access) });
    assert.equal(full.statusCode, 200);
    assert.equal(full.headers['content-type'], 'audio/wav');
    assert.deepEqual(full.rawPayload, wav);
    const part = await app.inject({
      url: `/api/alignments/${id}/audio/`,
      headers: { ...bearer(owner.access), range: 'bytes=100-199' },
    });
    assert.equal(part.statusCode, 206);
    assert.equal(part.headers['content-range'], `bytes 100-199/${wav.length}`);
    assert.deepEqual(part.rawPayload, wav.subarray(100, 200));
    const tail = await app.inject({
      url: `/api/alignments/${id}/audio/`,
      headers: { ...bearer(owner.access), range: 'bytes=-10' },
    });
    assert.deepEqual(tail.rawPayload, wav.subarray(wav.length - 10));
    const beyond = await app.inject({
      url: `/api/alignments/${id}/audio/`,
      headers: { ...bearer(owner.access), range: `bytes=${wav.length}-` },
    });
    expectError(beyond, 416, 'range_not_satisfiable');
  });

  await t.test('every file export opens in an independent reader', async () => {
    const get = (format: string, qs = '') =>
      app.inject({ url: `/api/alignments/${id}/export/${format}/?${qs}`, headers: bearer(owner.access) });
    const words = detail.result.words.length as number;

    const json = await get('json');
    assert.equal(json.statusCode, 200);
    assert.match(
      String(json.headers['content-disposition']),
      /attachment; filename="Dark suit _ TIMIT\.json"/,
    );
    assert.deepEqual(JSON.parse(json.body), detail.result);
    const lean = JSON.parse(
      (await get('json', 'include_metrics=false&pretty=false&include_audio=true')).body,
    );
    assert.equal('metrics' in lean, false);
    assert.equal(lean.audio_data.mime_type, 'audio/wav');
    assert.deepEqual(Buffer.from(lean.audio_data.base64, 'base64'), wav);
    AlignmentResult.omit({ metrics: true }).parse({ ...lean, audio_data: undefined });
    assert.ok(!(await get('json', 'pretty=false')).body.trimEnd().includes('\n'));

    const tg = parseTextGrid((await get('textgrid', 'tier_name=mots&phone_tier=true')).body);
    assert.deepEqual(
      tg.tiers.map((x) => x.name),
      ['mots', 'phones'],
    );
    const wordTier = tg.tiers[0]!;
    assert.ok(wordTier.class === 'IntervalTier');
    assert.equal(wordTier.intervals.filter((i) => i.text.trim()).length, words);
    assert.ok(Math.abs(tg.xmax - detail.duration) < 0.01);
    const noPhones = parseTextGrid((await get('textgrid', 'phone_tier=false')).body);
    assert.equal(noPhones.tiers.length, 1);

    const vtt = parseVtt((await get('vtt', 'words_per_line=3&min_segment_duration=0.5')).body);
    assert.ok(vtt.length >= Math.ceil(words / 6));
    for (const c of vtt)
      assert.ok(
        c.lines.every((l) => l.split(' ').length <= 3),
        JSON.stringify(c),
      );
    const srtPerWord = parseSrt((await get('srt', 'timestamps=true')).body);
    assert.equal(srtPerWord.length, words);
    const srt = parseSrt((await get('srt')).body);
    assert.ok(srt.length >= 1 && srt.length < words);

    const csv = await get('csv', 'separator=semicolon&headers=true');
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    const rows = parseCsv(csv.body, ';');
    assert.equal(rows.length, words + 1);
    assert.ok(rows[0]!.includes('start'));
    const tsv = await get('csv', 'separator=tab&headers=false');
    assert.equal(parseCsv(tsv.body, '\t').length, words);

    const eaf = parseXml((await get('eaf')).body);
    assert.equal(eaf.name, 'ANNOTATION_DOCUMENT');
    const tiers = eaf.children.filter((c) => c.name === 'TIER');
    assert.equal(tiers[0]!.children.length, words);

    expectError(await get('docx'), 400, 'validation_error');
    expectError(await get('csv', 'separator=pipe'), 400, 'validation_error');
  });

  const share = await app.inject({
    method: 'POST',
    url: `/api/alignments/${id}/share/`,
    headers: bearer(owner.access),
  });
  assert.equal(share.statusCode, 201, share.body);
  const token = share.json().token as string;

  await t.test('a share link is public, read-only and revocable', async () => {
    const again = await app.inject({
      method: 'POST',
      url: `/api/alignments/${id}/share/`,
      headers: bearer(owner.access),
    });
    assert.equal(again.json().token, token);
    const pub = await app.inject({ url: `/api/share/${token}/` });
    assert.equal(pub.statusCode, 200);
    assert.deepEqual(pub.json().result, detail.result);
    assert.equal(pub.json().original_text, clip.text);
    assert.equal('user_id' in pub.json(), false);
    const audio = await app.inject({ url: `/api/share/${token}/audio/`, headers: { range: 'bytes=0-3' } });
    assert.equal(audio.statusCode, 206);
    assert.equal(audio.body, 'RIFF');
    const listed = (
      await app.inject({ url: `/api/alignments/${id}/`, headers: bearer(owner.access) })
    ).json();
    assert.equal(listed.shared, true);
    // read-only: the public path has no write method (405 with Allow, issue 12)
    const write = await app.inject({ method: 'DELETE', url: `/api/share/${token}/` });
    assert.equal(write.statusCode, 405);
    assert.match(String(write.headers.allow), /\bGET\b/);
  });

  const project = await app.inject({
    method: 'POST',
    url: '/api/projects/',
    headers: bearer(owner.access),
    payload: { name: 'TIMIT', description: 'dev set' },
  });
  assert.equal(project.statusCode, 201, project.body);
  const pid = project.json().id as string;

  await t.test('projects group alignments and keep totals', async () => {
    const moved = await app.inject({
      method: 'POST',
      url: `/api/projects/${pid}/alignments/`,
      headers: bearer(owner.access),
      payload: { alignment_ids: [id] },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal(moved.json().moved, 1);
    const p = moved.json().project;
    assert.equal(p.alignments_count, 1);
    assert.equal(p.completed_count, 1);
    assert.ok(Math.abs(p.total_duration - detail.duration) < 0.001);
    assert.ok(Math.abs(p.mean_confidence - detail.confidence) < 0.001);
    const inProject = (
      await app.inject({ url: `/api/alignments/?project=${pid}`, headers: bearer(owner.access) })
    ).json();
    assert.deepEqual(
      inProject.results.map((r: { id: string }) => r.id),
      [id],
    );
    const renamed = await app.inject({
      method: 'PATCH',
      url: `/api/projects/${pid}/`,
      headers: bearer(owner.access),
      payload: { name: 'TIMIT dr1' },
    });
    assert.equal(renamed.json().name, 'TIMIT dr1');
    const list = (await app.inject({ url: '/api/projects/', headers: bearer(owner.access) })).json();
    assert.equal(list.count, 1);
  });

  await t.test('rename through PATCH', async () => {
    const r = await app.inject({
      method: 'PATCH',
      url: `/api/alignments/${id}/`,
      headers: bearer(owner.access),
      payload: { title: 'Renamed' },
    });
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.json().title, 'Renamed');
    assert.equal(r.json().project_id, pid);
    expectError(
      await app.inject({
        method: 'PATCH',
        url: `/api/alignments/${id}/`,
        headers: bearer(owner.access),
        payload: { title: '' },
      }),
      400,
      'validation_error',
    );
  });

  await t.test('another user gets 404 on every route of this alignment and project', async () => {
    const h = bearer(other.access);
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/alignments/${id}/`],
      ['PATCH', `/api/alignments/${id}/`, { title: 'mine now' }],
      ['GET', `/api/alignments/${id}/progress/`],
      ['GET', `/api/alignments/${id}/events/`],
      ['POST', `/api/alignments/${id}/cancel/`],
      ['GET', `/api/alignments/${id}/audio/`],
      ...['json', 'textgrid', 'vtt', 'srt', 'csv', 'eaf'].map(
        (f) => ['GET', `/api/alignments/${id}/export/${f}/`] as [string, string],
      ),
      ['POST', `/api/alignments/${id}/video/`, { resolution: 'sd' }],
      ['GET', `/api/alignments/${id}/video/`],
      ['GET', `/api/alignments/${id}/video/file/`],
      ['POST', `/api/alignments/${id}/share/`],
      ['GET', `/api/alignments/${id}/share/`],
      ['DELETE', `/api/alignments/${id}/share/`],
      ['GET', `/api/projects/${pid}/`],
      ['PATCH', `/api/projects/${pid}/`, { name: 'x' }],
      ['POST', `/api/projects/${pid}/alignments/`, { alignment_ids: [id] }],
      ['DELETE', `/api/projects/${pid}/`],
      ['DELETE', `/api/alignments/${id}/`],
    ];
    for (const [method, url, payload] of calls) {
      const r = await app.inject({
        method: method as 'GET',
        url,
        headers: h,
        ...(payload ? { payload } : {}),
      });
      expectError(r, 404, 'not_found');
    }
    // nor may another user pull this alignment into a project of their own
    const theirs = await app.inject({
      method: 'POST',
      url: '/api/projects/',
      headers: h,
      payload: { name: 'p' },
    });
    const steal = await app.inject({
      method: 'POST',
      url: `/api/projects/${theirs.json().id}/alignments/`,
      headers: h,
      payload: { alignment_ids: [id] },
    });
    expectError(steal, 404, 'not_found');
    const still = (await app.inject({ url: `/api/alignments/${id}/`, headers: bearer(owner.access) })).json();
    assert.equal(still.title, 'Renamed');
    assert.equal(still.project_id, pid);
  });

  await t.test('deleting the project leaves its alignments unassigned', async () => {
    const del = await app.inject({
      method: 'DELETE',
      url: `/api/projects/${pid}/`,
      headers: bearer(owner.access),
    });
    assert.equal(del.statusCode, 204);
    const a = (await app.inject({ url: `/api/alignments/${id}/`, headers: bearer(owner.access) })).json();
    assert.equal(a.project_id, null);
  });

  await t.test('revoking the share ends public access', async () => {
    const del = await app.inject({
      method: 'DELETE',
      url: `/api/alignments/${id}/share/`,
      headers: bearer(owner.access),
    });
    assert.equal(del.statusCode, 204);
    expectError(await app.inject({ url: `/api/share/${token}/` }), 404, 'not_found');
  });

  await t.test('deleting the alignment removes its rows and files', async () => {
    const folder = join(dir, 'files', 'users', owner.id, 'alignments', id);
    assert.ok(existsSync(join(folder, 'result.json')));
    const del = await app.inject({
      method: 'DELETE',
      url: `/api/alignments/${id}/`,
      headers: bearer(owner.access),
    });
    assert.equal(del.statusCode, 204);
    assert.equal(existsSync(folder), false);
    expectError(
      await app.inject({ url: `/api/alignments/${id}/`, headers: bearer(owner.access) }),
      404,
      'not_found',
    );
    const jobs = await app.deps.db.selectFrom('alignments').select('id').where('id', '=', id).execute();
    assert.equal(jobs.length, 0);
  });
});
