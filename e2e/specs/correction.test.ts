// The correction workspace in Chromium on the real server and engine: drag a word boundary, nudge it
// by 5 ms from the keyboard, save it as a revision, reload and find it again, export the TextGrid with
// the new time in it, then select a stretch on the waveform and re-align it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { admin, openBrowser, startServer } from '../src/harness.ts';
import type { RunningServer } from '../src/harness.ts';
import { until } from '@tazamun/server/testing/until';

const CLIP = '/work/shared/eval/timit-dev/dr1-fvmh0_sa1';
const PASSWORD = 'quiet-river-2025';
const EMAIL = 'phonetician@example.org';

let server: RunningServer;
before(async () => {
  if (!existsSync(`${CLIP}.wav`)) throw new Error(`${CLIP}.wav is missing: the test needs its recording`);
  server = await startServer({ DEMO_MEDIA_DIR: '' });
});
after(async () => {
  await server?.stop();
});

async function api<T>(path: string, token: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Uploads the TIMIT sentence through the API and waits until the engine has aligned it. */
async function alignedClip(token: string): Promise<string> {
  const form = new FormData();
  form.set('language', 'eng');
  form.set('title', 'Dark suit');
  form.set('text', (JSON.parse(readFileSync(`${CLIP}.json`, 'utf8')) as { text: string }).text);
  form.set('audio', new Blob([readFileSync(`${CLIP}.wav`)], { type: 'audio/wav' }), 'clip.wav');
  const created = await api<{ id: string }>('/api/alignments/', token, { method: 'POST', body: form });
  await until('the alignment completed', async () => {
    const p = await api<{ status: string }>(`/api/alignments/${created.id}/progress/`, token);
    if (p.status !== 'completed' && p.status !== 'queued' && p.status !== 'processing')
      throw new Error(`alignment ${p.status}`);
    return p.status === 'completed';
  });
  return created.id;
}

test(
  'drag a boundary, save, reload, export the TextGrid, re-align a stretch',
  { timeout: 420_000 },
  async () => {
    admin(
      server,
      'create',
      '--email',
      EMAIL,
      '--password',
      PASSWORD,
      '--first-name',
      'Rana',
      '--last-name',
      'Aziz',
    );
    const login = await fetch(`${server.url}/api/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    const token = ((await login.json()) as { tokens: { access: string } }).tokens.access;
    const id = await alignedClip(token);
    const engine = await api<{ result: { words: { word: string; start: number; end: number }[] } }>(
      `/api/alignments/${id}/`,
      token,
    );
    const dark = engine.result.words[3]!;
    assert.equal(dark.word, 'dark');

    const b = await openBrowser({ language: 'en', theme: 'light' });
    try {
      const { page } = b;
      await page.goto(`${server.url}/auth`);
      await page.getByLabel('E-mail').fill(EMAIL);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.waitForURL(/\/dashboard$/);

      await page.goto(`${server.url}/results/${id}`);
      await page.getByRole('button', { name: 'Correct', exact: true }).click();
      await page.waitForURL(/\?mode=correct$/);
      // The boundary between "dark" and "suit", drawn inside wavesurfer's shadow root (Playwright's CSS
      // engine reaches into open shadow roots).
      const handle = page.locator('[data-boundary="w3-end"]');
      await handle.waitFor();
      assert.equal(Number(await handle.getAttribute('data-time')), dark.end);

      // Zoom in so that one pixel is a few milliseconds, then drag the boundary 30 px to the left.
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await handle.scrollIntoViewIfNeeded();
      const box = (await handle.boundingBox())!;
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      for (let i = 1; i <= 6; i++) await page.mouse.move(x - i * 5, y);
      await page.mouse.up();
      const dragged = Number(await handle.getAttribute('data-time'));
      assert.ok(dragged < dark.end - 0.005, `moved left: ${dragged} < ${dark.end}`);
      assert.ok(dragged > dark.start, 'and stayed after the start of its word');
      // The neighbour's start followed the shared boundary: no gap, no overlap.
      assert.equal(await page.locator('[data-boundary="w4-start"]').count(), 0);

      // The boundary is selected by the drag: → moves it 5 ms later.
      await page.keyboard.press('ArrowRight');
      const nudged = Math.round((dragged + 0.005) * 10000) / 10000;
      assert.equal(Number(await handle.getAttribute('data-time')), nudged);
      await page.keyboard.press('Control+z');
      assert.equal(Number(await handle.getAttribute('data-time')), dragged);
      await page.keyboard.press('Control+Shift+z');
      assert.equal(Number(await handle.getAttribute('data-time')), nudged);

      await page.getByText('Unsaved changes').waitFor();
      await page.getByRole('button', { name: 'Save as a new revision' }).click();
      await page.getByTestId('editor-state').filter({ hasText: 'Revision 2 · No unsaved changes' }).waitFor();
      await page.getByTestId('revision-list').locator('[data-revision="2"]').waitFor();

      await page.reload();
      await page.locator('[data-boundary="w3-end"]').waitFor();
      assert.equal(Number(await page.locator('[data-boundary="w3-end"]').getAttribute('data-time')), nudged);
      await page.getByTestId('editor-state').filter({ hasText: 'Revision 2' }).waitFor();

      // The export panel gives the latest revision: the TextGrid has the new time.
      await page.getByLabel('Format').selectOption('textgrid');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download', exact: true }).click(),
      ]);
      const textGrid = readFileSync(await download.path(), 'utf8');
      assert.match(textGrid, /^! Tazamun revision 2, corrected \(user\), /m);
      const interval = /xmin = ([\d.]+) \n\s+xmax = ([\d.]+) \n\s+text = "dark" /.exec(textGrid);
      assert.ok(interval, 'the word tier has "dark"');
      assert.equal(Number(interval[2]), nudged);
      const next = new RegExp(
        `xmin = ${interval[2]!.replace('.', '\\.')} \\n\\s+xmax = [\\d.]+ \\n\\s+text = "suit" `,
      );
      assert.match(textGrid, next, '"suit" starts where "dark" now ends');

      // Select "greasy wash" on the waveform by dragging across it, then re-align that stretch.
      const words = (
        await api<{ result: { words: { word: string; start: number; end: number }[] } }>(
          `/api/alignments/${id}/`,
          token,
        )
      ).result.words;
      // (the reload showed the whole recording again: no zoom to wait for); the download scrolled down
      await page.evaluate('window.scrollTo(0, 0)');
      const wave = (await page.getByTestId('editor-waveform').boundingBox())!;
      // From inside "greasy" to inside "wash": the server widens the stretch to both whole words.
      const a = (await page.locator('[data-tier="words"] [data-word="6"]').boundingBox())!;
      const z = (await page.locator('[data-tier="words"] [data-word="7"]').boundingBox())!;
      const startX = a.x + a.width * 0.3;
      const endX = z.x + z.width * 0.6;
      assert.ok(endX > startX + 10, `${startX} ${endX}`);
      const yWave = wave.y + 40;
      await page.mouse.move(startX, yWave);
      await page.mouse.down();
      for (let i = 1; i <= 8; i++) await page.mouse.move(startX + ((endX - startX) * i) / 8, yWave);
      await page.mouse.up();
      const stretch = page.getByTestId('editor-stretch');
      await stretch.getByRole('button', { name: 'Re-align this stretch' }).waitFor();
      assert.equal(
        await page.getByLabel('Text of the stretch (correct it if needed)').inputValue(),
        'greasy wash',
        `${startX}–${endX} px: ${await stretch.textContent()}`,
      );
      await stretch.getByRole('button', { name: 'Re-align this stretch' }).click();
      await page
        .getByTestId('editor-state')
        .filter({ hasText: 'Revision 3 · No unsaved changes' })
        .waitFor({ timeout: 240_000 });

      const revisions = await api<{ revision: number; author: string; changed_words: number[] }[]>(
        `/api/alignments/${id}/revisions/`,
        token,
      );
      assert.deepEqual(
        revisions.map((r) => [r.revision, r.author]),
        [
          [1, 'engine'],
          [2, 'user'],
          [3, 'realign'],
        ],
      );
      assert.deepEqual(revisions[2]!.changed_words, [6, 7]);
      const after = (
        await api<{ result: { words: { word: string; start: number; end: number }[] } }>(
          `/api/alignments/${id}/`,
          token,
        )
      ).result.words;
      assert.deepEqual(after.slice(0, 6), words.slice(0, 6), 'the words before the stretch are untouched');
      assert.deepEqual(after.slice(8), words.slice(8), 'and so are the words after it');
      assert.equal(Number(await page.locator('[data-boundary="w3-end"]').getAttribute('data-time')), nudged);
      assert.deepEqual(b.consoleErrors, []);
    } finally {
      await b.close();
    }
  },
);
