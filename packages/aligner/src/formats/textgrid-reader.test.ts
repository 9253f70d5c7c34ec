import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { textGridTranscript } from './textgrid-reader.ts';

const LONG = `File type = "ooTextFile"
Object class = "TextGrid"

xmin = 0
xmax = 2.5
tiers? <exists>
size = 1
item []:
    item [1]:
        class = "IntervalTier"
        name = "utterance"
        xmin = 0
        xmax = 2.5
        intervals: size = 3
        intervals [1]:
            xmin = 0
            xmax = 0.4
            text = ""
        intervals [2]:
            xmin = 0.4
            xmax = 2.1
            text = "she said ""hello"" to"
        intervals [3]:
            xmin = 2.1
            xmax = 2.5
            text = "the class"
`;

test('a TextGrid of one tier gives its labels in order; long and short formats alike', () => {
  assert.deepEqual(textGridTranscript(LONG), { text: 'she said "hello" to the class' });
  const short = [
    'File type = "ooTextFile"',
    'Object class = "TextGrid"',
    '',
    '0',
    '2.5',
    '<exists>',
    '1',
    '"IntervalTier"',
    '"words"',
    '0',
    '2.5',
    '2',
    '0',
    '1.2',
    '"good morning"',
    '1.2',
    '2.5',
    '"everyone"',
  ].join('\n');
  assert.deepEqual(textGridTranscript(`\uFEFF${short}`), { text: 'good morning everyone' });
});

test('a TextGrid of two tiers, or a text that is not a TextGrid, is refused', () => {
  const two = LONG.replace('size = 1', 'size = 2');
  assert.deepEqual(textGridTranscript(two), { error: 'tiers' });
  assert.deepEqual(textGridTranscript('just words'), { error: 'not_textgrid' });
});

// Issue 27, item 1: a TextGrid declaring more intervals than it holds looped on its count (forever at
// 1e999, 24 s at 2e8 in the server). The parse runs here in a thread with a deadline, so a parser that
// loops fails this test instead of hanging the suite.
function parseOffThread(content: string, deadlineMs: number): Promise<unknown> {
  const api = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const mod = JSON.stringify(new URL('./textgrid-reader.ts', import.meta.url).href);
  const boot =
    `const { parentPort, workerData } = require('node:worker_threads');` +
    `import(${api}).then((m) => { m.register(); return import(${mod}); })` +
    `.then((m) => parentPort.postMessage(m.textGridTranscript(workerData)));`;
  const worker = new Worker(boot, { eval: true, workerData: content });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve('still parsing at the deadline');
    }, deadlineMs);
    worker.once('message', (m) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(m);
    });
    worker.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

const shortGrid = (declared: string, labels: string[]) =>
  [
    'File type = "ooTextFile"',
    'Object class = "TextGrid"',
    '',
    '0',
    '3',
    '<exists>',
    '1',
    '"IntervalTier"',
    '"words"',
    '0',
    '3',
    declared,
    ...labels.flatMap((l, k) => [`${k}`, `${k + 1}`, `"${l}"`]),
  ].join('\n');

test('counts the bytes cannot hold are refused at once: 1e999, 2e8, -1, 2.5, more than the file lists', async () => {
  // a generous deadline: the answer takes microseconds; only a parser walking its count misses it
  for (const declared of ['1e999', '2e8', '-1', '2.5', 'Infinity', '4']) {
    assert.deepEqual(
      await parseOffThread(shortGrid(declared, ['she', 'had', 'your']), 20_000),
      { error: 'malformed' },
      declared,
    );
  }
  // the long format's "intervals: size = 1e999" line as the probe sent it
  const long = LONG.replace('intervals: size = 3', 'intervals: size = 1e999');
  assert.deepEqual(await parseOffThread(long, 20_000), { error: 'malformed' });
  assert.deepEqual(await parseOffThread(shortGrid('3', ['she', 'had', 'your']), 20_000), {
    text: 'she had your',
  });
});

test('a 4 MB TextGrid of 200,000 intervals is read whole, in one pass', async () => {
  const labels = Array.from({ length: 200_000 }, (_, k) => `w${k % 1000}`);
  const grid = shortGrid(String(labels.length), labels);
  assert.ok(grid.length > 3_000_000);
  const got = (await parseOffThread(grid, 60_000)) as { text: string };
  assert.equal(got.text.split(' ').length, 200_000);
  assert.ok(got.text.startsWith('w0 w1 w2'));
});

test('a tier that is neither an IntervalTier nor a TextTier, or a file cut before its tier, is malformed', () => {
  assert.deepEqual(textGridTranscript(LONG.replace('"IntervalTier"', '"Sound"')), { error: 'malformed' });
  assert.deepEqual(textGridTranscript(shortGrid('1', []).split('\n').slice(0, 7).join('\n')), {
    error: 'malformed',
  });
});
