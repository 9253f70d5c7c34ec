// `tazamun align --corpus`: a folder in MFA's layout made at test time from the eval clips.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';
import { summaryCsv } from './align-corpus.ts';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../../bin/tazamun.mjs');
const EVAL = join(evalDir(), 'timit-dev');

function clip(name: string): { wav: string; text: string } {
  const wav = join(EVAL, `${name}.wav`);
  assert.ok(existsSync(wav), `eval set missing: ${wav}`);
  return {
    wav,
    text: (JSON.parse(readFileSync(join(EVAL, `${name}.json`), 'utf8')) as { text: string }).text,
  };
}

test('a corpus folder is aligned file by file into the same layout, with a summary', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tz-corpus-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const corpus = join(dir, 'corpus');
  const a = clip('dr1-fvmh0_sa1');
  const b = clip('dr1-fvmh0_sa2');
  mkdirSync(join(corpus, 'spk0'), { recursive: true });
  mkdirSync(join(corpus, 'spk1', 'session'), { recursive: true });
  copyFileSync(a.wav, join(corpus, 'spk0', 'utt0.wav'));
  writeFileSync(join(corpus, 'spk0', 'utt0.lab'), a.text);
  copyFileSync(b.wav, join(corpus, 'spk1', 'session', 'utt1.wav'));
  writeFileSync(
    join(corpus, 'spk1', 'session', 'utt1.TextGrid'),
    [
      'File type = "ooTextFile"',
      'Object class = "TextGrid"',
      '',
      '0',
      '3',
      '<exists>',
      '1',
      '"IntervalTier"',
      '"t"',
      '0',
      '3',
      '1',
      '0',
      '3',
      `"${b.text}"`,
    ].join('\n'),
  );
  writeFileSync(join(corpus, 'spk1', 'orphan.lab'), 'no audio');
  const out = join(dir, 'out');

  const r = spawnSync(
    process.execPath,
    [BIN, 'align', '--corpus', corpus, '--out-dir', out, '--lang', 'eng'],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /skipped spk1\/orphan\.lab: no recording with the same base name/);
  // not a terminal: one progress line per step, then the count
  assert.match(r.stderr, /\[\.{24}\] 0\/2 spk0\/utt0\n/);
  assert.match(r.stderr, /\[#{24}\] 2\/2 done\n2\/2 recordings aligned\n$/);
  for (const f of ['spk0/utt0.TextGrid', 'spk1/session/utt1.TextGrid'])
    assert.match(readFileSync(join(out, f), 'utf8'), /^File type = "ooTextFile"/, f);

  const csv = readFileSync(join(out, 'summary.csv'), 'utf8').trim().split('\n');
  assert.equal(csv[0], 'file,duration,words,coverage,confidence,wer,error');
  assert.deepEqual(
    csv.slice(1).map((l) => {
      const c = l.split(',');
      return [c[0], c[2], c[3], c[6]];
    }),
    [
      ['spk0/utt0.wav', String(a.text.split(/\s+/).length), '1.0000', ''],
      ['spk1/session/utt1.wav', String(b.text.split(/\s+/).length), '1.0000', ''],
    ],
  );
  const table = r.stdout.split('\n');
  assert.match(table[0]!, /^file\s+duration\s+words\s+coverage\s+confidence\s+wer\s+error$/);
  assert.match(table[2]!, /^spk0\/utt0\.wav\s+\d+\.\d\d\s+11\s+1\.000\s+0\.\d{3}\s+\d\.\d{3}$/);
});

test('a folder without pairs fails with a message; missing options print the usage', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tz-corpus-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'alone.wav'), 'x');
  const none = spawnSync(
    process.execPath,
    [BIN, 'align', '--corpus', dir, '--out-dir', join(dir, 'o'), '--lang', 'eng'],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(none.status, 1);
  assert.match(none.stderr, /skipped alone\.wav: no transcript with the same base name/);
  assert.match(none.stderr, /no recording with a transcript of the same base name/);
  const usage = spawnSync(process.execPath, [BIN, 'align', '--corpus', dir], { encoding: 'utf8' });
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /usage: tazamun align --corpus DIR --out-dir OUT --lang CODE/);
});

test('summary.csv goes through the exports’ CSV writer: formula-like names and errors are guarded', () => {
  const csv = summaryCsv([
    { file: '=cmd|calc.wav', duration: 1.5, words: 3, coverage: 1, confidence: 0.9, wer: 0, error: null },
    {
      file: '@SUM(1).wav',
      duration: null,
      words: null,
      coverage: null,
      confidence: null,
      wer: null,
      error: '+x',
    },
    { file: 'a,b "c".wav', duration: 2, words: 4, coverage: 0.5, confidence: 0.8, wer: 0.25, error: null },
  ]);
  assert.equal(
    csv,
    'file,duration,words,coverage,confidence,wer,error\n' +
      "'=cmd|calc.wav,1.500,3,1.0000,0.9000,0.0000,\n" +
      "'@SUM(1).wav,,,,,,'+x\n" +
      '"a,b ""c"".wav",2.000,4,0.5000,0.8000,0.2500,\n',
  );
});
