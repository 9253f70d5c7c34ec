// An alignment through the interface on the real server and engine: upload a read English recording
// with its transcript, follow the processing steps, read the result, download every export (the MP4 too).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { admin, openBrowser, startServer } from '../src/harness.ts';
import type { RunningServer } from '../src/harness.ts';

const MEDIA = '/work/shared/demo-media/en-librivox-austen';
const PASSWORD = 'quiet-river-2025';

let server: RunningServer;
before(async () => {
  if (!existsSync(join(MEDIA, 'audio.wav')))
    throw new Error(`${MEDIA} is missing: the test needs its recording`);
  // No demo seeding here: the test's own job should not queue behind the gallery's.
  server = await startServer({ DEMO_MEDIA_DIR: '' });
});
after(async () => {
  await server?.stop();
});

test(
  'upload → processing steps → result with word table → every export, video included',
  { timeout: 300_000 },
  async () => {
    admin(
      server,
      'create',
      '--email',
      'aligner@example.org',
      '--password',
      PASSWORD,
      '--first-name',
      'Sami',
      '--last-name',
      'Nasser',
      '--role',
      'user',
    );
    const b = await openBrowser({ language: 'en' });
    try {
      const { page } = b;
      await page.goto(`${server.url}/auth`);
      await page.getByLabel('E-mail').fill('aligner@example.org');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.waitForURL(/\/dashboard$/);

      // Every request for the alignment's audio, to check how the player reads it.
      const audioRequests: Promise<Record<string, string>>[] = [];
      page.on('request', (request) => {
        if (/\/api\/alignments\/[^/]+\/audio\//.test(request.url()))
          audioRequests.push(request.allHeaders().then((h) => ({ ...h, url: request.url() })));
      });

      // the dashboard's quick action (the header has a "New alignment" link too)
      await page
        .getByRole('main')
        .getByRole('link', { name: /New alignment/ })
        .click();
      await page.waitForURL(/\/upload$/);
      await page.getByTestId('audio-input').setInputFiles(join(MEDIA, 'audio.wav'));
      const transcript = readFileSync(join(MEDIA, 'text.txt'), 'utf8');
      await page.getByLabel('Text spoken in the recording').fill(transcript);
      const words = transcript.trim().split(/\s+/u).length;
      assert.match(
        (await page.getByTestId('text-counts').textContent()) ?? '',
        new RegExp(`· ${words} words`),
      );
      await page.getByRole('combobox', { name: 'Language' }).fill('eng');
      await page.getByRole('combobox', { name: 'Language' }).press('Tab');
      await page.getByLabel('Title').fill('Austen chapter 1');
      // the results page follows the job through the server's event stream, not by polling
      const progressReads: string[] = [];
      page.on('request', (r) => {
        if (/\/api\/alignments\/[^/]+\/(events|progress)\//.test(r.url())) progressReads.push(r.url());
      });
      await page.getByRole('button', { name: 'Start the alignment' }).click();

      await page.waitForURL(/\/results\/[^/]+$/);
      await page.getByRole('heading', { name: 'Austen chapter 1' }).waitFor();
      await page
        .getByTestId('alignment-status')
        .filter({ hasText: 'Completed' })
        .waitFor({ timeout: 240_000 });
      const streams = progressReads.filter((u) => u.includes('/events/'));
      const polls = progressReads.filter((u) => u.includes('/progress/'));
      assert.ok(streams.length >= 1, 'the page opened the event stream');
      assert.ok(polls.length <= 2, `progress read ${polls.length} times besides the stream`);

      await page.getByTestId('transcript').waitFor();
      // The player streams from a signed URL: playable once the metadata is in, no token sent.
      const audio = page.getByTestId('audio-stream');
      assert.match((await audio.getAttribute('src')) ?? '', /\/audio\/\?sig=[\w-]+&exp=\d+$/);
      // A function, not a string: once the first check fails, Playwright polls a string predicate
      // through eval, which the app's CSP (script-src 'self') refuses.
      await page.waitForFunction(
        () => document.querySelector<HTMLAudioElement>('[data-testid="audio-stream"]')!.readyState >= 1,
      );
      const duration = await audio.evaluate((a) => (a as HTMLAudioElement).duration);
      assert.ok(typeof duration === 'number' && duration > 0);
      await page.locator('button[aria-label="Play"]:enabled').waitFor();
      const sent = await Promise.all(audioRequests);
      assert.ok(sent.length > 0);
      for (const h of sent) {
        assert.match(h.url!, /\?sig=/);
        assert.equal(h.authorization, undefined);
      }
      assert.ok(
        sent.some((h) => /^bytes=/.test(h.range ?? '')),
        'the media element asks for byte ranges',
      );

      await page.getByRole('tab', { name: 'Word table' }).click();
      const rows = page.getByTestId('word-table').locator('tr');
      assert.equal(await rows.count(), words);
      // Keyboard navigation in the table.
      await rows.first().focus();
      await page.keyboard.press('ArrowDown');
      assert.equal(await rows.nth(1).getAttribute('aria-selected'), 'true');

      await page.getByLabel('Format').selectOption('textgrid');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download', exact: true }).click(),
      ]);
      assert.equal(download.suggestedFilename(), 'Austen chapter 1.TextGrid');
      const path = await download.path();
      const textGrid = readFileSync(path, 'utf8');
      assert.match(textGrid, /File type = "ooTextFile"/);
      assert.match(textGrid, /Object class = "TextGrid"/);

      // Every other file export, each read back enough to know it is the format it claims.
      const checks: Record<string, { ext: RegExp; body: RegExp }> = {
        json: { ext: /\.json$/, body: /"schema_version": 1/ },
        vtt: { ext: /\.vtt$/, body: /^WEBVTT/ },
        srt: { ext: /\.srt$/, body: /^1\r?\n\d\d:\d\d:\d\d,\d{3} --> / },
        csv: { ext: /\.csv$/, body: /dashwood/ },
        eaf: { ext: /\.eaf$/, body: /<ANNOTATION_DOCUMENT[\s\S]*<\/ANNOTATION_DOCUMENT>\s*$/ },
      };
      for (const [format, check] of Object.entries(checks)) {
        await page.getByLabel('Format').selectOption(format);
        const [file] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Download', exact: true }).click(),
        ]);
        assert.match(file.suggestedFilename(), check.ext, format);
        assert.match(readFileSync(await file.path(), 'utf8'), check.body, format);
      }

      // The karaoke video: rendered as a job at SD, then downloaded and probed.
      await page.getByLabel('Resolution').selectOption('sd');
      await page.getByRole('button', { name: 'Render the video' }).click();
      const downloadVideo = page.getByRole('button', { name: 'Download the video' });
      await downloadVideo.waitFor({ timeout: 180_000 });
      const [video] = await Promise.all([page.waitForEvent('download'), downloadVideo.click()]);
      assert.match(video.suggestedFilename(), /\.mp4$/);
      const probe = JSON.parse(
        execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', await video.path()], {
          encoding: 'utf8',
        }),
      ) as { streams: { codec_name: string; width?: number; height?: number }[] };
      const codecs = probe.streams.map((st) => st.codec_name).sort();
      assert.deepEqual(codecs, ['aac', 'h264']);
      const picture = probe.streams.find((st) => st.codec_name === 'h264');
      assert.deepEqual([picture?.width, picture?.height], [854, 480]);

      // A read-only link that works without an account.
      await page.getByRole('button', { name: 'Share a link' }).click();
      const link = await page.getByTestId('share-link').inputValue();
      assert.match(link, /\/share\/[\w-]+$/);
      const anonymous = await openBrowser({ language: 'en' });
      try {
        await anonymous.page.goto(link);
        await anonymous.page.getByRole('heading', { name: 'Austen chapter 1' }).waitFor();
        await anonymous.page.getByTestId('transcript').getByRole('button', { name: 'dashwood' }).waitFor();
        assert.deepEqual(anonymous.consoleErrors, []);
      } finally {
        await anonymous.close();
      }

      // The quota went down by one and the dashboard lists the alignment.
      await page.goto(`${server.url}/dashboard`);
      await page.getByTestId('recent-alignments').getByRole('link', { name: 'Austen chapter 1' }).waitFor();
      assert.match((await page.getByTestId('quota-card').textContent()) ?? '', /9\s*\/\s*10/);
      assert.deepEqual(b.consoleErrors, []);
    } finally {
      await b.close();
    }
  },
);
