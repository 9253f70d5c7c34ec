// The correction workspace from the keyboard alone, on a phone, and the result's pages for listening
// and reading, in Chromium on the real server and engine (one aligned TIMIT sentence for every test):
// - Tab reaches the tiers (one stop), the arrows and [ ] reach a boundary, ← → nudge it, Tab goes on
//   to Save, the revisions and the exports; nothing needs a mouse;
// - at 390 px a tapped word keeps the page inside the screen;
// - a clicked word plays that word only; Esc in the word table stays on the page;
// - the read-along page, opened from a file, highlights the right word; the EPUB's overlay has the
//   revision's times.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { checkEpub } from '@tazamun/aligner/testing/epub-check';
import { admin, openBrowser, startServer } from '../src/harness.ts';
import type { RunningServer } from '../src/harness.ts';
import { until } from '@tazamun/server/testing/until';

const CLIP = '/work/shared/eval/timit-dev/dr1-fvmh0_sa1';
const PASSWORD = 'quiet-river-2025';
const EMAIL = 'keyboard@example.org';

interface Word {
  word: string;
  start: number;
  end: number;
}

let server: RunningServer;
let token = '';
let id = '';
let words: Word[] = [];

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

before(async () => {
  if (!existsSync(`${CLIP}.wav`)) throw new Error(`${CLIP}.wav is missing: the test needs its recording`);
  server = await startServer({ DEMO_MEDIA_DIR: '' });
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
  token = ((await login.json()) as { tokens: { access: string } }).tokens.access;
  const form = new FormData();
  form.set('language', 'eng');
  form.set('title', 'Dark suit');
  form.set('text', (JSON.parse(readFileSync(`${CLIP}.json`, 'utf8')) as { text: string }).text);
  form.set('audio', new Blob([readFileSync(`${CLIP}.wav`)], { type: 'audio/wav' }), 'clip.wav');
  id = (await api<{ id: string }>('/api/alignments/', { method: 'POST', body: form })).id;
  await until('the alignment completed', async () => {
    const p = await api<{ status: string }>(`/api/alignments/${id}/progress/`);
    if (p.status !== 'completed' && p.status !== 'queued' && p.status !== 'processing')
      throw new Error(`alignment ${p.status}`);
    return p.status === 'completed';
  });
  words = (await api<{ result: { words: Word[] } }>(`/api/alignments/${id}/`)).result.words;
  assert.equal(words[3]!.word, 'dark');
});
after(async () => {
  await server?.stop();
});

/** Signs in with the keyboard: type, Tab, type, Enter. */
async function signIn(page: Page): Promise<void> {
  await page.goto(`${server.url}/auth`);
  await page.locator('input[name="email"]').focus();
  await page.keyboard.type(EMAIL);
  await page.keyboard.press('Tab');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/dashboard$/);
}

/** What has the keyboard, through open shadow roots (the tiers live in wavesurfer's). */
function focused(page: Page) {
  return page.evaluate(() => {
    let a: Element | null = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    const el = a as HTMLElement | null;
    return {
      tag: el?.tagName ?? '',
      role: el?.getAttribute('role') ?? null,
      word: el?.dataset.word ?? null,
      boundary: el?.dataset.boundary ?? null,
      label: el?.getAttribute('aria-label') ?? null,
      value: el?.getAttribute('aria-valuenow') ?? null,
      text: (el?.textContent ?? '').trim().slice(0, 60),
    };
  });
}

/** Presses Tab until `done` says so; fails after `limit` presses (a trap, or a control out of reach). */
async function tabUntil(
  page: Page,
  what: string,
  done: (f: Awaited<ReturnType<typeof focused>>) => boolean,
  limit = 40,
  key = 'Tab',
): Promise<number> {
  for (let n = 1; n <= limit; n++) {
    await page.keyboard.press(key);
    if (done(await focused(page))) return n;
  }
  throw new Error(
    `${what}: not reached in ${limit} presses of ${key}; focus is on ${JSON.stringify(await focused(page))}`,
  );
}

const r4 = (x: number) => Math.round(x * 10000) / 10000;

test(
  'the workspace from the keyboard alone: tiers, a boundary nudged, saved, exported',
  { timeout: 420_000 },
  async () => {
    const b = await openBrowser({ language: 'en', theme: 'light' });
    try {
      const { page } = b;
      await signIn(page);
      await page.goto(`${server.url}/results/${id}?mode=correct`);
      await page.locator('[data-boundary="w3-end"]').waitFor();

      // From the top of the page, Tab passes the toolbar and lands on the tiers: one stop, the first word.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await tabUntil(page, 'the tiers', (f) => f.role === 'gridcell');
      let f = await focused(page);
      assert.equal(f.word, '0', 'the first word holds the tiers’ tab stop');
      assert.match(f.label ?? '', /^She, /);

      // → three times: "dark"; ] its end boundary, labelled and valued
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
      f = await focused(page);
      assert.deepEqual([f.role, f.word], ['gridcell', '3']);
      await page.keyboard.press(']');
      f = await focused(page);
      assert.equal(f.role, 'separator');
      assert.equal(f.boundary, 'w3-end');
      assert.equal(f.label, 'Boundary between “dark” and “suit”');
      assert.equal(Number(f.value), words[3]!.end);

      // → moves it 5 ms later, ⇧← 1 ms earlier; "suit" starts where "dark" ends
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Shift+ArrowLeft');
      const moved = r4(words[3]!.end + 0.004);
      assert.equal(Number((await focused(page)).value), moved);
      await page.getByText('Unsaved changes').waitFor();

      // Esc goes back to the word; Tab leaves the tiers for the controls after them, then to Save
      await page.keyboard.press('Escape');
      assert.deepEqual([(await focused(page)).role, (await focused(page)).word], ['gridcell', '3']);
      await page.keyboard.press('Tab');
      f = await focused(page);
      assert.notEqual(f.role, 'gridcell', 'Tab leaves the tiers');
      assert.notEqual(f.role, 'separator');
      await tabUntil(page, 'Save', (x) => x.text === 'Save as a new revision', 15);
      await page.keyboard.press('Enter');
      await page.getByTestId('editor-state').filter({ hasText: 'Revision 2 · No unsaved changes' }).waitFor();
      const saved = await api<{ result: { words: Word[] } }>(`/api/alignments/${id}/`);
      assert.equal(saved.result.words[3]!.end, moved);
      assert.equal(saved.result.words[4]!.start, moved);

      // On through the panels to the revisions: revision 2's TextGrid, by Enter
      await tabUntil(
        page,
        'revision 2 as TextGrid',
        (x) => x.label === 'Download revision 2 as Praat TextGrid',
        40,
      );
      const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
      const textGrid = readFileSync(await download.path(), 'utf8');
      assert.match(textGrid, /^! Tazamun revision 2, corrected \(user\), /m);
      assert.match(textGrid, new RegExp(`xmax = ${moved} \\n\\s+text = "dark" `));
      // and the exports below are reachable too
      await tabUntil(
        page,
        'the export format',
        (x) => x.tag === 'SELECT' && x.label === null && x.text.startsWith('JSON'),
        40,
      );

      // Shift+Tab comes back into the tiers at the word last selected; ⇧→ selects a stretch of words
      await tabUntil(page, 'the tiers again', (x) => x.role === 'gridcell', 60, 'Shift+Tab');
      assert.equal((await focused(page)).word, '3');
      await page.keyboard.press('Shift+ArrowRight');
      await page.keyboard.press('Shift+ArrowRight');
      assert.equal(
        (await page.getByTestId('stretch-words').textContent())?.trim(),
        'Re-aligned: dark suit in',
      );
      // ? lists the shortcuts
      await page.keyboard.press('?');
      await page.getByTestId('shortcuts-help').waitFor();
      assert.deepEqual(b.consoleErrors, []);
    } finally {
      await b.close();
    }
  },
);

test(
  'on a 390 px phone (Arabic), a tapped word keeps the workspace inside the screen',
  { timeout: 300_000 },
  async () => {
    const b = await openBrowser({ language: 'ar', theme: 'dark', width: 390, height: 844 });
    try {
      const { page } = b;
      await signIn(page);
      await page.goto(`${server.url}/results/${id}?mode=correct`);
      await page.locator('[data-boundary="w3-end"]').waitFor();
      await page.locator('[data-tier="words"] [data-word="6"]').click();
      await page.getByTestId('editor-selection').getByText('الكلمة ٧').waitFor();
      const sizes = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        viewport: document.documentElement.clientWidth,
        panels: [
          'editor-selection',
          'editor-stretch',
          'editor-check',
          'revision-list',
          'editor-waveform',
        ].map((t) =>
          Math.round(document.querySelector(`[data-testid="${t}"]`)!.getBoundingClientRect().width),
        ),
        logo: document.querySelector('header a[href="/"]')!.getBoundingClientRect().right,
      }));
      assert.equal(sizes.page, sizes.viewport, `the page does not scroll sideways: ${JSON.stringify(sizes)}`);
      for (const w of sizes.panels) assert.ok(w <= 390 - 16 * 2, `a panel fits: ${JSON.stringify(sizes)}`);
      assert.ok(sizes.logo <= 390, 'the logo stays on the screen');

      // At the whole recording many phones are narrower than a handle: no handle covers more than 30 %
      // of its interval (so a click on a short phone selects the phone, not a boundary)
      const handles = await page.evaluate(() => {
        const host = document.querySelector('[data-testid="editor-waveform"]')!;
        const root = [...host.querySelectorAll('div')].find((d) => d.shadowRoot)?.shadowRoot;
        const all = [
          ...(root ?? document).querySelectorAll<HTMLElement>('[data-tier="phones"] [role="separator"]'),
        ];
        return all.map((el) => ({
          handle: el.getBoundingClientRect().width,
          interval: (el.parentElement as HTMLElement).getBoundingClientRect().width,
        }));
      });
      assert.ok(handles.length > 20, `the phone tier has its boundaries: ${handles.length}`);
      for (const h of handles)
        assert.ok(h.handle <= Math.max(2, Math.round(h.interval * 0.3)) + 0.5, JSON.stringify(h));

      // the results page and the profile stay inside the screen too (badges, tabs, the word table)
      for (const path of [`/results/${id}`, '/profile?tab=preferences']) {
        await page.goto(`${server.url}${path}`);
        await page.waitForLoadState('networkidle');
        const width = await page.evaluate(() => [
          document.documentElement.scrollWidth,
          document.documentElement.clientWidth,
        ]);
        assert.equal(width[0], width[1], `${path} does not scroll sideways`);
      }
      assert.deepEqual(b.consoleErrors, []);
    } finally {
      await b.close();
    }
  },
);

test(
  'hearing one word: a click plays that word and stops at its end; Esc in the table stays on the page',
  { timeout: 300_000 },
  async () => {
    const b = await openBrowser({ language: 'en', theme: 'light' });
    try {
      const { page } = b;
      await signIn(page);
      const warnings: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'warning') warnings.push(m.text());
      });
      await page.goto(`${server.url}/results/${id}`);
      // the player is ready when its play button is enabled
      await page.waitForFunction(() => {
        const button = document.querySelector<HTMLButtonElement>(
          '[data-testid="waveform"] ~ * button, button[aria-label="Play"]',
        );
        return !!button && !button.disabled;
      });
      const wash = words[7]!;
      await page.getByTestId('transcript').locator('[data-word="7"]').click();
      // playing, then paused at the end of "wash" (not at the end of the recording)
      const stopped = await page.waitForFunction(
        () => {
          const a = document.querySelector<HTMLAudioElement>('[data-testid="audio-stream"]')!;
          return a.paused && a.currentTime > 0 ? a.currentTime : false;
        },
        undefined,
        { timeout: 60_000 },
      );
      const at = (await stopped.jsonValue()) as number;
      assert.ok(at >= wash.end - 0.05 && at < wash.end + 0.3, `stopped at ${at}, "wash" ends at ${wash.end}`);

      await page.getByRole('tab', { name: 'Word table' }).click();
      const row = page.getByTestId('word-table').locator('[data-row="2"]');
      await row.click();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Escape');
      const after = await page.evaluate(
        () => document.activeElement?.getAttribute('role') ?? document.activeElement?.tagName,
      );
      assert.equal(after, 'tab', 'Esc leaves the table for its tab, not for the top of the page');
      // a direct visit to a screen loaded on demand: no React Router hydration warning
      assert.deepEqual(
        warnings.filter((w) => /HydrateFallback/.test(w)),
        [],
      );
    } finally {
      await b.close();
    }
  },
);

test(
  'the read-along page works from a file and highlights the right word; the EPUB has the revision’s times',
  { timeout: 300_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tazamun-readalong-'));
    const revision = (
      await api<{ result: { revision: { number: number }; words: Word[] } }>(`/api/alignments/${id}/`)
    ).result;
    const b = await openBrowser({ language: 'ar', theme: 'dark' });
    try {
      const { page } = b;
      await signIn(page);
      await page.goto(`${server.url}/results/${id}`);
      // from the results page, in the interface's language
      const [pageDownload] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('download-readalong').click(),
      ]);
      const html = join(dir, 'dark-suit.html');
      writeFileSync(html, readFileSync(await pageDownload.path()));
      const [epubDownload] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('download-epub').click(),
      ]);
      const epub = checkEpub(readFileSync(await epubDownload.path()));
      assert.deepEqual(
        epub.pars.map((p) => [p.textId, p.clipBegin, p.clipEnd]),
        revision.words.map((w, i) => [`w${i}`, w.start, w.end]),
        'the SMIL clips are the latest revision’s word times',
      );

      // opened from the disk, with the network cut: nothing is fetched
      await b.context.setOffline(true);
      const reader = await b.context.newPage();
      const requests: string[] = [];
      reader.on('request', (r) => {
        if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url());
      });
      await reader.goto(pathToFileURL(html).href);
      await reader.waitForFunction(() => document.querySelector<HTMLAudioElement>('#audio')!.readyState >= 1);
      assert.equal(await reader.locator('#text').getAttribute('dir'), 'ltr', 'English reads left to right');
      assert.equal(
        await reader.locator('html').getAttribute('dir'),
        'rtl',
        'around it, the Arabic interface',
      );
      for (const k of [1, 5, 9]) {
        const w = revision.words[k]!;
        const t = (w.start + w.end) / 2;
        await reader.evaluate((x) => {
          document.querySelector<HTMLAudioElement>('#audio')!.currentTime = x;
        }, t);
        await reader.waitForFunction(
          (word) => document.querySelector('.w.on')?.textContent === word,
          w.word,
          { timeout: 30_000 },
        );
        assert.equal(await reader.locator('.w.on').count(), 1, `one word lit at ${t}`);
        assert.equal(await reader.locator('.w.on').getAttribute('aria-current'), 'true');
      }
      // a click on a word plays that word
      await reader.locator('.w', { hasText: 'greasy' }).click();
      await reader.waitForFunction(() => {
        const a = document.querySelector<HTMLAudioElement>('#audio')!;
        return a.paused && a.currentTime > 0;
      });
      const stoppedAt = await reader.evaluate(
        () => document.querySelector<HTMLAudioElement>('#audio')!.currentTime,
      );
      const greasy = revision.words[6]!;
      assert.ok(stoppedAt >= greasy.end - 0.05 && stoppedAt < greasy.end + 0.3, `stopped at ${stoppedAt}`);
      assert.deepEqual(requests, []);
      assert.deepEqual(b.consoleErrors, []);
    } finally {
      await b.close();
    }
  },
);
