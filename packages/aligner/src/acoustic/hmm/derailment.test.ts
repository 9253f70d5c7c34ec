// The derailing case of issue 17: en-mfa-testdata's second "cold" (hoarse voice) recording at the default
// precision. Its narrow beams used to keep a path that drifted away from the speech after 9 s and left the
// last 13 words unplaced (21 of 63 not found); the window is now searched again with wider beams.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';
import { align } from '../../engine.ts';
import type { Unit, UnitSpan } from '../backend.ts';
import { longestUnplacedRun } from './backend.ts';

test('a derailing recording at `standard` places its words and ends where the speech ends', async () => {
  const base = join(evalDir(), 'en-mfa-testdata', 'cold_corpus3');
  const meta = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as {
    text: string;
    words: { w: string; start: number; end: number }[];
  };
  const result = await align(`${base}.wav`, meta.text, { lang: 'eng', precision: 'standard' });
  const words = result.words;
  assert.equal(words.length, 63);
  const unplaced = words.filter((w) => w.start === null).length;
  assert.ok(unplaced <= 8, `${unplaced} of 63 words not found (21 before the guard, 7 at high)`);
  // the closing "alright thanks" is placed on the closing words of the reference
  const last = words.at(-1)!;
  const refLast = meta.words.at(-1)!;
  assert.equal(last.word.toLowerCase(), 'thanks');
  assert.ok(last.start !== null && Math.abs(last.start - refLast.start) < 0.3, `thanks at ${last.start}`);
  // no long run of unplaced words is left anywhere
  let run = 0;
  let longest = 0;
  for (const w of words) {
    run = w.start === null ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  assert.ok(longest <= 3, `longest run of words not found: ${longest}`);
});

test('the derailment measure counts consecutive placeable units left unplaced', () => {
  const unit = (prons: string[][]): Unit => ({ prons }) as unknown as Unit;
  const span = (i: number): UnitSpan => ({ unit: i, start: i, end: i + 1, confidence: 1, phones: [] });
  const units = [unit([['a']]), unit([['b']]), unit([]), unit([['c']]), unit([['d']]), unit([['e']])];
  assert.equal(longestUnplacedRun(units, [0, 1, 3, 4, 5].map(span)), 0);
  // unit 2 has no pronunciation: it neither breaks nor extends a run
  assert.equal(longestUnplacedRun(units, [0, 5].map(span)), 3);
  assert.equal(longestUnplacedRun(units, [0, 4].map(span)), 2);
  assert.equal(longestUnplacedRun(units, []), 5);
  // an open-ended window: the text after its last placed unit runs past its end and does not count
  assert.equal(longestUnplacedRun(units, [0].map(span), false), 0);
  assert.equal(longestUnplacedRun(units, [0, 4].map(span), false), 2);
  assert.equal(longestUnplacedRun(units, [5].map(span), false), 4);
  assert.equal(longestUnplacedRun(units, [], false), 0);
});
