// A corpus through the interface: drop a zip of three recordings in MFA's layout onto a project, follow
// the table until all are aligned, and download the project's zip of TextGrids. The recordings are made
// at test time with ffmpeg from the shared eval clips (never committed).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin, openBrowser, startServer } from '../src/harness.ts';
import type { RunningServer } from '../src/harness.ts';
import { until } from '@tazamun/server/testing/until';

const EVAL = '/work/shared/eval/timit-dev';
const CLIPS = [
  ['spk0/utt0', 'dr1-fvmh0_sa1', 'wav'],
  ['spk0/utt1', 'dr1-fvmh0_sa2', 'mp3'],
  ['spk1/utt0', 'dr2-faem0_sa1', 'wav'],
] as const;
const PASSWORD = 'quiet-river-2025';

let server: RunningServer;
let work: string;
before(async () => {
  for (const [, clip] of CLIPS)
    if (!existsSync(join(EVAL, `${clip}.wav`))) throw new Error(`${EVAL}/${clip}.wav is missing`);
  work = mkdtempSync(join(tmpdir(), 'tazamun-e2e-corpus-'));
  // One job at a time and a long job time-out: on a shared machine three jobs at once can outlast the
  // default time-out, and time-outs are not what this test is about.
  server = await startServer({ DEMO_MEDIA_DIR: '', WORKER_CONCURRENCY: '1', JOB_TIMEOUT_BASE: '10m' });
});
after(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

function makeCorpusZip(): Buffer {
  const root = join(work, 'corpus');
  for (const [base, clip, ext] of CLIPS) {
    mkdirSync(join(root, base, '..'), { recursive: true });
    // re-encoded by ffmpeg (one as MP3), so the server sees files made here, not the eval files themselves
    execFileSync('/usr/bin/ffmpeg', [
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-i',
      join(EVAL, `${clip}.wav`),
      join(root, `${base}.${ext}`),
    ]);
    const { text } = JSON.parse(readFileSync(join(EVAL, `${clip}.json`), 'utf8')) as { text: string };
    writeFileSync(join(root, `${base}.lab`), text);
  }
  execFileSync('/usr/bin/zip', ['-q', '-r', join(work, 'corpus.zip'), 'spk0', 'spk1'], { cwd: root });
  return readFileSync(join(work, 'corpus.zip'));
}

test(
  'a zip of three recordings dropped onto a project comes back as a zip of TextGrids',
  { timeout: 900_000 },
  async () => {
    admin(
      server,
      'create',
      '--email',
      'corpus@example.org',
      '--password',
      PASSWORD,
      '--first-name',
      'Lina',
      '--last-name',
      'Saleh',
      '--role',
      'user',
    );
    const zip = makeCorpusZip();
    const b = await openBrowser({ language: 'en' });
    try {
      const { page } = b;
      await page.goto(`${server.url}/auth`);
      await page.getByLabel('E-mail').fill('corpus@example.org');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.waitForURL(/\/dashboard$/);

      await page.goto(`${server.url}/projects`);
      await page.getByLabel('New project').fill('Read speech');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      const dropzone = page.getByTestId('batch-dropzone');
      await dropzone.waitFor();
      // a new project assumes no language (not the account's Arabic): the corpus's is chosen first
      const picker = dropzone.getByRole('combobox', { name: 'Language' });
      assert.equal(await picker.inputValue(), '');
      await picker.fill('eng');
      await picker.press('Tab');

      // A real drop: a DataTransfer holding the zip as a File, dispatched on the drop zone.
      // (a string: the e2e workspace is typed without the DOM library)
      const transfer = await page.evaluateHandle(`(() => {
      const bytes = Uint8Array.from(atob(${JSON.stringify(zip.toString('base64'))}), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'corpus.zip', { type: 'application/zip' }));
      return dt;
    })()`);
      await dropzone.dispatchEvent('dragover', { dataTransfer: transfer });
      await dropzone.dispatchEvent('drop', { dataTransfer: transfer });
      await page.getByText('3 recordings queued.').waitFor();

      const table = page.getByTestId('batch-table');
      const rows = table.locator('tbody tr');
      await rows.nth(2).waitFor();
      assert.deepEqual(await rows.locator('td:first-child').allTextContents(), [
        'spk0/utt0.wav',
        'spk0/utt1.mp3',
        'spk1/utt0.wav',
      ]);
      // the table follows the jobs until every recording is aligned
      // (read from Node: the app's CSP forbids the string evaluation waitForFunction needs)
      let statuses: string[] = [];
      await until(
        () => `the batch to complete (${statuses.join('|')})`,
        async () => {
          statuses = await rows.locator('td:nth-child(2)').allTextContents();
          return statuses.join('|') === 'Completed|Completed|Completed';
        },
      );
      assert.deepEqual(await rows.locator('td:nth-child(4)').allTextContents(), ['100%', '100%', '100%']);
      // aligned as English, the language chosen (the project's list names each recording's language)
      // (the list is a query of its own, read again on its own schedule: it may still say Processing
      // for a moment after the batch table says Completed)
      const listed = page.getByTestId('alignment-list').locator('li');
      await listed.nth(2).waitFor();
      let texts: string[] = [];
      await until(
        () => `the project's list to name three completed English recordings (${texts.join(' | ')})`,
        async () => {
          texts = await listed.allTextContents();
          return texts.length === 3 && texts.every((t) => /English · Completed/.test(t));
        },
      );

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download the TextGrids (zip)' }).click(),
      ]);
      assert.equal(download.suggestedFilename(), 'Read speech-textgrid.zip');
      const path = await download.path();
      const listing = execFileSync('/usr/bin/unzip', ['-Z1', path], { encoding: 'utf8' }).trim().split('\n');
      assert.deepEqual(listing, [
        'spk0/utt0.TextGrid',
        'spk0/utt1.TextGrid',
        'spk1/utt0.TextGrid',
        'summary.csv',
      ]);
      for (const name of listing.slice(0, 3)) {
        const tg = execFileSync('/usr/bin/unzip', ['-p', path, name], { encoding: 'utf8' });
        assert.match(tg, /^File type = "ooTextFile"\r?\nObject class = "TextGrid"/, name);
      }
      const summary = execFileSync('/usr/bin/unzip', ['-p', path, 'summary.csv'], { encoding: 'utf8' }).split(
        '\r\n',
      );
      assert.equal(summary[0], 'file,duration,words,coverage,confidence,wer');
      assert.deepEqual(
        summary.slice(1, 4).map((l) => l.split(',').slice(0, 1).concat(l.split(',').slice(3, 4))),
        [
          ['spk0/utt0.TextGrid', '1'],
          ['spk0/utt1.TextGrid', '1'],
          ['spk1/utt0.TextGrid', '1'],
        ],
      );
      assert.deepEqual(b.consoleErrors, []);
    } finally {
      await b.close();
    }
  },
);
