// The verdict through the interface, on the real server and engine: a recording uploaded with another
// recording's transcript completes (and is counted) but says, in red, that the transcript does not match
// and what to check; the word table shows the phones in IPA; the dashboard list carries the verdict.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { admin, openBrowser, startServer } from '../src/harness.ts';
import type { RunningServer } from '../src/harness.ts';

const TIMIT = '/work/shared/eval/timit-dev';
const PASSWORD = 'quiet-river-2025';

let server: RunningServer;
before(async () => {
  if (!existsSync(join(TIMIT, 'dr1-fvmh0_sa1.wav')))
    throw new Error(`${TIMIT} is missing: the test needs its recordings`);
  server = await startServer({ DEMO_MEDIA_DIR: '' });
});
after(async () => {
  await server?.stop();
});

test(
  'a mismatched transcript: red banner with what to check, IPA phones, verdict in the list',
  { timeout: 300_000 },
  async () => {
    admin(
      server,
      'create',
      '--email',
      'checker@example.org',
      '--password',
      PASSWORD,
      '--first-name',
      'Lina',
      '--last-name',
      'Haddad',
      '--role',
      'user',
    );
    // another speaker's sentence: none of its words are in this recording
    const other = JSON.parse(readFileSync(join(TIMIT, 'dr3-madc0_si1367.json'), 'utf8')) as { text: string };
    const b = await openBrowser({ language: 'en' });
    try {
      const { page } = b;
      await page.goto(`${server.url}/auth`);
      await page.getByLabel('E-mail').fill('checker@example.org');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.waitForURL(/\/dashboard$/);

      await page.goto(`${server.url}/upload`);
      await page.getByTestId('audio-input').setInputFiles(join(TIMIT, 'dr1-fvmh0_sa1.wav'));
      await page.getByLabel('Text spoken in the recording').fill(other.text);
      await page.getByRole('combobox', { name: 'Language' }).fill('eng');
      await page.getByRole('combobox', { name: 'Language' }).press('Tab');
      await page.getByLabel('Title').fill('Wrong transcript');
      await page.getByRole('button', { name: 'Start the alignment' }).click();

      await page.waitForURL(/\/results\/[^/]+$/);
      // the job completes: the alignment was done, only its transcript is wrong
      await page
        .getByTestId('alignment-status')
        .filter({ hasText: 'Completed' })
        .waitFor({ timeout: 240_000 });
      const banner = page.getByTestId('quality-banner');
      await banner.waitFor();
      assert.equal(await banner.getAttribute('data-verdict'), 'mismatch');
      assert.equal(await banner.getByRole('alert').count(), 1);
      const text = (await banner.textContent()) ?? '';
      assert.match(text, /The transcript does not match the audio/);
      assert.match(text, /The words do not fit the speech: estimated word error rate/);
      assert.match(text, /What to check/);
      assert.match(text, /The transcript belongs to this recording and is complete\./);
      const badge = page.getByTestId('verdict-badge');
      assert.equal(await badge.textContent(), 'Mismatch');
      // red, like the failed status: the danger colour of the theme
      assert.match((await badge.getAttribute('class')) ?? '', /text-danger/);

      await page.getByRole('tab', { name: 'Word table' }).click();
      const phones = page.getByTestId('word-phones');
      const placed = (await phones.allTextContents()).filter((p) => p.trim() !== '');
      assert.ok(placed.length > 0, 'some words were placed');
      // IPA on the tier, ARPAbet kept as the model's label in the title
      for (const p of placed) assert.doesNotMatch(p, /[A-Z]{2}/, p);

      await page.goto(`${server.url}/dashboard`);
      const recent = page.getByTestId('recent-alignments');
      await recent.getByRole('link', { name: 'Wrong transcript' }).waitFor();
      assert.equal(await recent.getByTestId('verdict-badge').textContent(), 'Mismatch');
      // counted like any completed alignment
      assert.match((await page.getByTestId('quota-card').textContent()) ?? '', /9\s*\/\s*10/);
      assert.match((await page.getByTestId('good-share').textContent()) ?? '', /Good results\s*0%/);
      assert.deepEqual(b.consoleErrors, []);
    } finally {
      await b.close();
    }
  },
);
