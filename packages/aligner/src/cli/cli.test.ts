import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../../bin/tazamun.mjs');
const UTT = resolve(here, '../../../../../shared/eval/timit-dev/dr1-fvmh0_sa1');
const dir = mkdtempSync(join(tmpdir(), 'tz-cli-'));

function tazamun(...args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: dir });
}

function textFile(): string {
  assert.ok(existsSync(`${UTT}.wav`), `eval set missing: ${UTT}.wav`);
  const f = join(dir, 'sa1.txt');
  writeFileSync(f, (JSON.parse(readFileSync(`${UTT}.json`, 'utf8')) as { text: string }).text);
  return f;
}

test('align writes the platform JSON and a TextGrid', () => {
  const txt = textFile();
  const r = tazamun('align', `${UTT}.wav`, txt, '--lang', 'eng', '-o', join(dir, 'out.json'));
  assert.equal(r.status, 0, r.stderr);
  const res = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as {
    schema_version: number;
    words: unknown[];
  };
  assert.equal(res.schema_version, 1);
  assert.equal(res.words.length, 11);
  const tg = tazamun('align', `${UTT}.wav`, txt, '--lang', 'en', '--format', 'textgrid', '--no-recognition');
  assert.equal(tg.status, 0, tg.stderr);
  assert.match(tg.stdout, /ooTextFile/);
  assert.match(tg.stdout, /"she"|"She"/);
});

test('batch alignment from a manifest writes one JSON per item', () => {
  const txt = textFile();
  const manifest = join(dir, 'm.jsonl');
  writeFileSync(
    manifest,
    [
      JSON.stringify({ id: 'one', audio: `${UTT}.wav`, text_file: txt, lang: 'eng' }),
      JSON.stringify({
        id: 'two',
        audio: `${UTT}.wav`,
        text: 'She had your dark suit in greasy wash water all year.',
        lang: 'en',
      }),
    ].join('\n'),
  );
  const r = tazamun('align', '--manifest', manifest, '--out-dir', join(dir, 'batch'), '--no-recognition');
  assert.equal(r.status, 0, r.stderr);
  for (const id of ['one', 'two']) {
    const res = JSON.parse(readFileSync(join(dir, 'batch', `${id}.json`), 'utf8')) as {
      words: { status: string }[];
    };
    assert.equal(res.words.length, 11);
  }
});

test('languages lists codes and routes', () => {
  const r = tazamun('languages');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^ara\tar\tArabic\tarabic-rules/m);
  assert.match(r.stdout, /^fra\tfr\tFrench/m);
});

test('bad input gives a clear error and a non-zero exit', () => {
  const f = join(dir, 'bad.wav');
  writeFileSync(f, 'not audio');
  const r = tazamun('align', f, textFile(), '--lang', 'en');
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /not a readable audio file|could not decode/);
  assert.equal(tazamun('frobnicate').status, 2);
});
