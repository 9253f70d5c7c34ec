// Issue 18 through the interface on the real server and engine: the language picker, the transcript's
// keyboard model, rename, retry and delete of alignments, and the demo gallery on a first start.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { admin, openBrowser, startServer, waitOrExplain } from '../src/harness.ts';
import type { RunningServer } from '../src/harness.ts';
import { until } from '@tazamun/server/testing/until';

const MEDIA = '/work/shared/demo-media/en-librivox-austen';
const PASSWORD = 'quiet-river-2025';

let server: RunningServer;
let scratch: string;
before(async () => {
  if (!existsSync(join(MEDIA, 'audio.wav')))
    throw new Error(`${MEDIA} is missing: the test needs its recording`);
  scratch = mkdtempSync(join(tmpdir(), 'tazamun-e2e-media-'));
  // one worker: a job sent while another runs waits in the queue (the retry below relies on it)
  server = await startServer({ DEMO_MEDIA_DIR: '', WORKER_CONCURRENCY: '1' });
});
after(async () => {
  await server?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${server.url}/auth`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(/\/dashboard$/);
}

/** The data-word index of the focused element, or null when the focus is not on a transcript word. */
const focusedWord = (page: Page) =>
  page.evaluate(
    "(() => { const el = document.activeElement; return el && el.closest('[data-testid=\"transcript\"]') ? el.getAttribute('data-word') : null; })()",
  );

test(
  'language picker, transcript keyboard, rename, retry and delete through the interface',
  { timeout: 400_000 },
  async () => {
    admin(
      server,
      'create',
      '--email',
      'maha@example.org',
      '--password',
      PASSWORD,
      '--role',
      'user',
      '--first-name',
      'Maha',
      '--last-name',
      'Nasser',
    );
    const b = await openBrowser({ language: 'en' });
    try {
      const { page } = b;
      await signIn(page, 'maha@example.org');
      await page.goto(`${server.url}/upload`);

      // The picker takes ISO 639-1, ISO 639-3, the English name and the language's own name.
      const picker = page.getByRole('combobox', { name: 'Language' });
      const hint = page.getByTestId('language-hint');
      for (const typed of ['ar', 'ara', 'Arabic', 'العربية']) {
        // Emptied first: filling in the name the field already shows would change nothing.
        await picker.fill('');
        await picker.fill(typed);
        const first = page.getByRole('listbox', { name: 'Language' }).getByRole('option').first();
        assert.match((await first.textContent()) ?? '', /^Arabic · العربية/);
        await picker.press('Enter');
        assert.equal(await picker.inputValue(), 'Arabic');
        assert.equal(await hint.textContent(), 'ara');
      }
      await picker.fill('en');
      await picker.press('Enter');
      assert.equal(await hint.textContent(), 'eng · native acoustic model');

      await page.getByTestId('audio-input').setInputFiles(join(MEDIA, 'audio.wav'));
      const transcript = readFileSync(join(MEDIA, 'text.txt'), 'utf8');
      await page.getByLabel('Text spoken in the recording').fill(transcript);
      await page.getByLabel('Title').fill('Austen for the keyboard');
      await page.getByRole('button', { name: 'Start the alignment' }).click();
      await page.waitForURL(/\/results\/[^/]+$/);
      const austenUrl = page.url();
      await page
        .getByTestId('alignment-status')
        .filter({ hasText: 'Completed' })
        .waitFor({ timeout: 240_000 });

      // One tab stop for the whole transcript; arrows move inside it; Tab leaves it.
      const words = page.getByTestId('transcript').locator('[data-word]');
      assert.equal(await words.count(), transcript.trim().split(/\s+/u).length);
      // Words not found in the audio are skipped by the arrows: End goes to the last playable one.
      const lastPlayable = await page.evaluate(
        "[...document.querySelectorAll('[data-testid=\"transcript\"] [data-word]:not([disabled])')].pop().getAttribute('data-word')",
      );
      const stops = await page.getByTestId('transcript').locator('[data-word][tabindex="0"]').count();
      assert.equal(stops, 1);
      await page.getByRole('checkbox', { name: 'Follow playback' }).focus();
      await page.keyboard.press('Tab');
      assert.equal(await focusedWord(page), '0');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      assert.equal(await focusedWord(page), '2');
      await page.keyboard.press('ArrowLeft');
      assert.equal(await focusedWord(page), '1');
      await page.keyboard.press('End');
      assert.equal(await focusedWord(page), lastPlayable);
      await page.keyboard.press('Home');
      assert.equal(await focusedWord(page), '0');
      await page.keyboard.press('Tab');
      assert.equal(await focusedWord(page), null, 'Tab leaves the transcript at once');

      // Rename from the results page.
      await page.getByRole('button', { name: 'Rename' }).click();
      const titleField = page.getByRole('dialog').getByLabel('Title');
      await titleField.fill('Austen, renamed');
      await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
      await page.getByRole('heading', { name: 'Austen, renamed' }).waitFor();

      // A take cancelled while it waits can be run again with the same files and options. The one
      // worker (WORKER_CONCURRENCY=1) is kept busy by the recording looped eight times (about 200 s of
      // speech) sent through the API, so the silent take still waits behind it when its page opens and
      // is cancelled there. (One copy, 25 s, was aligned by our decoder before the page's steps were
      // done, and the silent take then completed before Cancel could be clicked.)
      const looped = join(scratch, 'austen-looped.wav');
      execFileSync('ffmpeg', [
        '-nostdin',
        '-v',
        'error',
        '-y',
        '-stream_loop',
        '7',
        '-i',
        join(MEDIA, 'audio.wav'),
        '-c',
        'copy',
        looped,
      ]);
      const silence = join(scratch, 'silence.wav');
      execFileSync('ffmpeg', [
        '-nostdin',
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'anullsrc=r=16000:cl=mono',
        '-t',
        '30',
        silence,
      ]);
      const token = await page.evaluate("localStorage.getItem('access_token')");
      const authorization = `Bearer ${String(token)}`;
      const api = async (path: string) =>
        (await fetch(`${server.url}${path}`, { headers: { authorization } })).json() as Promise<
          Record<string, unknown>
        >;
      const usedToday = async () =>
        ((await api('/api/auth/quota/')).quota as { used_today: number }).used_today;
      const form = new FormData();
      form.set('language', 'eng');
      form.set('title', 'Austen, again');
      form.set('text', Array.from({ length: 8 }, () => transcript.trim()).join('\n'));
      form.set('audio', new Blob([readFileSync(looped)]), 'audio.wav');
      const sent = await fetch(`${server.url}/api/alignments/`, {
        method: 'POST',
        headers: { authorization },
        body: form,
      });
      assert.equal(sent.status, 202);
      const blockerId = ((await sent.json()) as { id: string }).id;

      await page.goto(`${server.url}/upload`);
      await page.getByRole('combobox', { name: 'Language' }).fill('English');
      await page.getByRole('combobox', { name: 'Language' }).press('Tab');
      // The name is taken once the language list is in; with the other job aligning, the list can
      // arrive after the Tab (a start clicked before it would be refused as "choose a language").
      await waitOrExplain(
        b,
        server,
        page.getByTestId('language-hint').filter({ hasText: /^eng/ }),
        page.getByTestId('language-hint'),
      );
      await page.getByTestId('audio-input').setInputFiles(silence);
      await page.getByLabel('Text spoken in the recording').fill('nothing to hear here');
      await page.getByLabel('Title').fill('Silent take');
      await page.getByRole('button', { name: 'Start the alignment' }).click();
      await page.waitForURL(/\/results\/[^/]+$/);
      const silentId = page.url().split('/').pop()!;
      // waiting behind the other job, or aligning its 30 s if that one is already done: either way it
      // is cancelled at once
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await page
        .getByTestId('alignment-status')
        .filter({ hasText: 'Cancelled' })
        .waitFor({ timeout: 60_000 });
      const beforeRetry = await usedToday();
      // The quota tells the retry ran: one more unit, then the take completes behind the other job
      // (silence completes, with a no_speech verdict).
      await page.getByRole('button', { name: 'Retry' }).click();
      await page
        .getByTestId('alignment-status')
        .filter({ hasText: 'Completed' })
        .waitFor({ timeout: 300_000 });
      assert.equal(await usedToday(), beforeRetry + 1);
      const detail = await api(`/api/alignments/${silentId}/`);
      assert.deepEqual(
        [detail.title, detail.language, detail.status, detail.verdict],
        ['Silent take', 'eng', 'completed', 'no_speech'],
      );
      assert.equal(((await api(`/api/alignments/${blockerId}/`)) as { status: string }).status, 'completed');

      // Delete asks first; cancelling keeps it, confirming removes it and leaves the page.
      await page.goto(austenUrl);
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      assert.equal((await api('/api/alignments/')).count, 3);
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
      await page.waitForURL(/\/projects$/);
      const left = await api('/api/alignments/');
      assert.deepEqual(
        (left.results as { title: string }[]).map((a) => a.title),
        ['Silent take', 'Austen, again'],
      );
      // …and from the list: the two others go too, one after the other.
      for (const remaining of [1, 0]) {
        await page
          .getByTestId('alignment-list')
          .getByRole('button', { name: 'Delete', exact: true })
          .first()
          .click();
        await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
        await page.getByRole('dialog').waitFor({ state: 'detached' });
        await until(
          `${remaining} alignments left`,
          async () => (await api('/api/alignments/')).count === remaining,
        );
      }
      await page.getByText('Nothing here yet. Start an alignment from the upload studio.').waitFor();
      assert.equal((await api('/api/alignments/')).count, 0);
      // Nothing asks for a deleted alignment again (no 404 logged by the browser).
      assert.deepEqual(b.consoleErrors, []);
    } finally {
      await b.close();
    }
  },
);

test('on a first start the gallery says the demos are being prepared, in Arabic only', async () => {
  // No worker in this process: the seeded demos stay queued, as in the first minutes of a new server.
  const fresh = await startServer({ WORKER_CONCURRENCY: '0' });
  try {
    // Seeding runs in the background after start-up: wait until the three demos are queued.
    const list = await until('the three demos queued', async () => {
      const l = (await (await fetch(`${fresh.url}/api/demos/`)).json()) as {
        count: number;
        preparing: number;
      };
      return l.preparing >= 3 ? l : null;
    });
    assert.deepEqual([list.count, list.preparing], [0, 3]);
    const b = await openBrowser({ language: 'ar' });
    try {
      await b.page.goto(`${fresh.url}/demos`);
      const preparing = b.page.getByTestId('demos-preparing');
      await preparing.waitFor();
      assert.match((await preparing.textContent()) ?? '', /يجري إعداد العروض التوضيحية.*المتبقي: ٣/);
      assert.equal(await b.page.getByText('لا يوجد عرض مطابق').count(), 0);
      // No English on the Arabic page: every Latin-script word in the main content is a listed name.
      const text = (await b.page.locator('main').textContent()) ?? '';
      assert.deepEqual(text.match(/[A-Za-z]{2,}/g) ?? [], []);
      assert.deepEqual(b.consoleErrors, []);
    } finally {
      await b.close();
    }
  } finally {
    await fresh.stop();
  }
});
