// Each writer produces exactly its golden file (test-support/golden/), and the strict parsers read the
// files back to the alignment they came from: a change to a writer that changes the format shows here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseSrt, parseTextGrid, parseVtt, parseXml } from '@tazamun/aligner/testing/format-parsers';
import { makeResult } from '@tazamun/aligner/testing/result-fixtures';
import { toEaf } from './eaf.ts';
import { toSrt, toWebVtt } from './subtitles.ts';
import { toTextGrid } from './textgrid.ts';

const golden = (name: string) =>
  readFileSync(new URL(`../../test-support/golden/she-had-water.${name}`, import.meta.url), 'utf8');
const result = makeResult('She had water', 'eng', { missing: [1] });

test('TextGrid: byte for byte the golden file, read back to the words, phones and the word not found', () => {
  const file = golden('TextGrid');
  assert.equal(toTextGrid(result), file);
  const grid = parseTextGrid(file);
  assert.deepEqual([grid.xmin, grid.xmax], [0, 1.75]);
  const [words, phones, missing] = grid.tiers;
  assert.ok(words?.class === 'IntervalTier' && phones?.class === 'IntervalTier');
  assert.ok(missing?.class === 'TextTier');
  assert.deepEqual(
    words.intervals.map((i) => [i.xmin, i.xmax, i.text]),
    [
      [0, 0.25, ''],
      [0.25, 0.65, 'She'],
      [0.65, 0.75, ''],
      [0.75, 1.15, 'water'],
      [1.15, 1.75, ''],
    ],
  );
  assert.deepEqual(
    phones.intervals.filter((i) => i.text).map((i) => i.text),
    ['ɑ', 'b', 'ɑ', 'b'],
  );
  assert.deepEqual(missing.points, [{ number: 0.65, mark: 'had' }]);
});

test('WebVTT and SRT: byte for byte the golden files (SRT with CRLF), one cue with the three words', () => {
  const vtt = golden('vtt');
  const srt = golden('srt');
  assert.equal(toWebVtt(result), vtt);
  assert.equal(toSrt(result), srt);
  assert.ok(srt.includes('\r\n') && !srt.replace(/\r\n/g, '').includes('\n'));
  for (const cues of [parseVtt(vtt), parseSrt(srt)])
    assert.deepEqual(
      cues.map((c) => [c.id, c.start, c.end, c.lines]),
      [['1', 250, 1250, ['She had water']]],
    );
});

test('EAF: byte for byte the golden file; time slots in ms shared by the word and phone tiers', () => {
  const file = golden('eaf');
  assert.equal(toEaf(result, { date: '2026-11-24T00:00:00.000Z' }), file);
  const doc = parseXml(file);
  assert.equal(doc.name, 'ANNOTATION_DOCUMENT');
  assert.equal(doc.attrs.FORMAT, '3.0');
  const slots = doc.children
    .find((c) => c.name === 'TIME_ORDER')!
    .children.map((s) => Number(s.attrs.TIME_VALUE));
  assert.deepEqual(slots, [250, 450, 650, 750, 950, 1150]);
  const tiers = doc.children.filter((c) => c.name === 'TIER').map((t) => t.attrs.TIER_ID);
  assert.deepEqual(tiers, ['words', 'phones']);
});
