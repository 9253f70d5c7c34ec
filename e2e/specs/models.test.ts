// Models that learn, through the interface (issue 31): a project of three TIMIT speakers, a boundary
// corrected in the workspace and saved as a revision, the project's model adapted from the Models
// section (the revision as ground truth), the project setting turned on, and a new recording dropped
// onto the project whose result names the adapted model in engine.model, on the results page too. The
// recordings are made at test time with ffmpeg from the shared eval set (never committed).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin, openBrowser, startServer } from '../src/harness.ts';
import type { RunningServer } from '../src/harness.ts';
import { until } from '@tazamun/server/testing/until';
import {
  CORPUS_SPEAKERS,
  HELD_OUT_SPEAKER,
  speakerRecording,
} from '@tazamun/server/testing/adaptation-corpus';

const PASSWORD = 'quiet-river-2025';
const EMAIL = 'adapter@example.org';

let server: RunningServer;
let work: string;
before(async () => {
  work = mkdtempSync(join(tmpdir(), 'tazamun-e2e-models-'));
  // one job at a time and a long time limit: the shared machine is slow, and time-outs are not the point
  server = await startServer({ DEMO_MEDIA_DIR: '', WORKER_CONCURRENCY: '1', JOB_TIMEOUT_BASE: '20m' });
});
after(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function api<T>(path: string, token: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function completed(token: string, id: string): Promise<void> {
  await until(`alignment ${id} completed`, async () => {
    const p = await api<{ status: string }>(`/api/alignments/${id}/progress/`, token);
    if (p.status !== 'completed' && p.status !== 'queued' && p.status !== 'processing')
      throw new Error(`alignment ${p.status}`);
    return p.status === 'completed';
  });
}

test(
  'a corrected revision, then the project’s adaptation, then a new upload named by the adapted model',
  { timeout: 1_800_000 },
  async () => {
    admin(
      server,
      'create',
      '--email',
      EMAIL,
      '--password',
      PASSWORD,
      '--first-name',
      'Samir',
      '--last-name',
      'Nour',
    );
    const login = await fetch(`${server.url}/api/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    const token = ((await login.json()) as { tokens: { access: string } }).tokens.access;
    // the project's recordings, uploaded through the API: three speakers, about 87 s of speech
    const project = await api<{ id: string }>('/api/projects/', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Read sentences' }),
    });
    const ids: string[] = [];
    for (const speaker of CORPUS_SPEAKERS) {
      const r = speakerRecording(work, speaker);
      const form = new FormData();
      form.set('language', 'eng');
      form.set('project_id', project.id);
      form.set('title', speaker);
      form.set('text', r.text);
      form.set('audio', new Blob([readFileSync(r.wav)], { type: 'audio/wav' }), `${speaker}.wav`);
      ids.push((await api<{ id: string }>('/api/alignments/', token, { method: 'POST', body: form })).id);
    }
    for (const id of ids) await completed(token, id);

    const b = await openBrowser({ language: 'en', theme: 'light' });
    try {
      const { page } = b;
      await page.goto(`${server.url}/auth`);
      await page.getByLabel('E-mail').fill(EMAIL);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.waitForURL(/\/dashboard$/);

      // a boundary corrected in the workspace and saved as revision 2
      await page.goto(`${server.url}/results/${ids[0]}?mode=correct`);
      const handle = page.locator('[data-boundary="w3-end"]');
      await handle.waitFor();
      const before = Number(await handle.getAttribute('data-time'));
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await handle.scrollIntoViewIfNeeded();
      const box = (await handle.boundingBox())!;
      const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
      await page.mouse.move(x, y);
      await page.mouse.down();
      for (let i = 1; i <= 4; i++) await page.mouse.move(x - i * 3, y);
      await page.mouse.up();
      assert.notEqual(Number(await handle.getAttribute('data-time')), before, 'the boundary moved');
      await page.getByRole('button', { name: 'Save as a new revision' }).click();
      await page.getByTestId('editor-state').filter({ hasText: 'Revision 2 · No unsaved changes' }).waitFor();

      // the Models section of the project page: adapt a model of the recordings' language
      await page.goto(`${server.url}/projects?project=${project.id}`);
      const section = page.getByTestId('project-models');
      await section.getByText('No model yet.').waitFor();
      const picker = section.getByRole('combobox', { name: 'Language of the recordings' });
      await until('the language of the recordings in the picker', async () =>
        /English|eng/.test(await picker.inputValue()),
      );
      await section.getByRole('button', { name: 'Adapt a model' }).click();
      await page.getByText('Adaptation started. It runs in the background.').waitFor();
      const item = section.getByTestId('model-item');
      // the section follows the adaptation (its progress bar) until the model is ready
      let status: string | null = null;
      await until(
        () => `the model to be ready (${status ?? 'none'})`,
        async () => {
          status = await item.getAttribute('data-status');
          if (status === 'failed') throw new Error(`adaptation failed: ${await item.textContent()}`);
          return status === 'completed';
        },
      );
      const name = (await item.getByTestId('model-name').textContent())!;
      assert.match(name, /^cmusphinx-en-us-.*\+[0-9a-f]{12}$/);
      const figures = (await item.getByTestId('model-figures').textContent())!;
      assert.match(figures, /Recordings3/);
      const truth = /Hand-corrected words \(ground truth\)(\d+)/.exec(figures);
      assert.ok(truth && Number(truth[1]) > 0, `the corrected revision was ground truth: ${figures}`);

      // uploads to the project use it from now on
      await section
        .getByRole('checkbox', {
          name: 'Align new uploads to this project with its newest model of their language',
        })
        .check();
      await item.getByTestId('model-in-use').waitFor();

      // a new recording (another speaker) dropped onto the project as a zip in MFA's layout
      const held = speakerRecording(work, HELD_OUT_SPEAKER);
      mkdirSync(join(work, 'zip', 'spk'), { recursive: true });
      execFileSync('/usr/bin/ffmpeg', [
        '-nostdin',
        '-v',
        'error',
        '-y',
        '-i',
        held.wav,
        join(work, 'zip', 'spk', 'new.wav'),
      ]);
      writeFileSync(join(work, 'zip', 'spk', 'new.lab'), held.text);
      execFileSync('/usr/bin/zip', ['-q', '-r', join(work, 'new.zip'), 'spk'], { cwd: join(work, 'zip') });
      await page.getByLabel('Choose a zip').setInputFiles(join(work, 'new.zip'));
      await page.getByText('1 recording queued.').waitFor();
      const list = await api<{ results: { id: string; file_name: string; language: string }[] }>(
        `/api/alignments/?project=${project.id}&page_size=100`,
        token,
      );
      const added = list.results.find((a) => a.file_name === 'spk/new.wav')!;
      assert.equal(added.language, 'eng', 'the batch takes the language of the project’s recordings');
      await completed(token, added.id);
      const detail = await api<{ adapted_model: string | null; result: { engine: { model: string } } }>(
        `/api/alignments/${added.id}/`,
        token,
      );
      assert.equal(detail.adapted_model, name);
      assert.equal(detail.result.engine.model, name);

      // the results page says which model aligned it
      await page.goto(`${server.url}/results/${added.id}`);
      assert.equal(
        await page.getByTestId('alignment-model').textContent(),
        `Aligned with this project’s adapted model ${name}`,
      );
      assert.deepEqual(b.consoleErrors, []);
    } finally {
      await b.close();
    }
  },
);
