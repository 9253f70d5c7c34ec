import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Unit, UnitSpan } from '../acoustic/backend.ts';
import { poolRecognitions, recognitionWindows, scoreRecognition } from './recognition.ts';

/** One unit per word, spelled by its letters (as the mms back-end makes them). */
const spelled = (words: string[]): Unit[] =>
  words.map((w, i) => ({ tokenIndex: i, wordIndex: i, text: w, prons: [[...w]] }));

test('recognised labels against the units: label errors, words with half their labels heard, per word', () => {
  const r = scoreRecognition(spelled(['hello', 'world']), [...'heloworld'], 'letters');
  assert.equal(r.cer, 0.1);
  // "helo" hears 4 of the 5 letters of "hello": the word counts as recognised
  assert.equal(r.wer, 0);
  assert.deepEqual(r.counts, { phoneErrors: 1, phones: 10, wrongWords: 0, words: 2 });
  assert.deepEqual(
    [...r.perWord!],
    [
      [0, { hit: 4, n: 5 }],
      [1, { hit: 5, n: 5 }],
    ],
  );
  const wrong = scoreRecognition(spelled(['good', 'cat']), [...'godxyz'], 'letters');
  assert.equal(wrong.wer, 0.5, '"cat" heard none of its letters');
  assert.equal(wrong.method, 'letters');
  // a unit without a pronunciation has nothing to score
  const none = scoreRecognition([{ tokenIndex: 0, wordIndex: 0, text: '', prons: [] }], ['a'], 'letters');
  assert.deepEqual([none.wer, none.cer, none.counts], [null, null, undefined]);
});

test('pooled windows add up their counts and per-word hits; one window is returned as it is', () => {
  const a = scoreRecognition(spelled(['ab']), ['a', 'b'], 'm');
  const b = scoreRecognition(spelled(['cd', 'ef']), ['c', 'x', 'e', 'f'], 'm');
  assert.equal(poolRecognitions([a]), a);
  const pooled = poolRecognitions([a, b]);
  assert.deepEqual(pooled.counts, { phoneErrors: 1, phones: 6, wrongWords: 0, words: 3 });
  assert.equal(pooled.cer, 0.167);
  assert.match(pooled.method, /^m \(pooled over 30 s windows\)$/);
  assert.deepEqual(poolRecognitions([]).cer, null);
});

test('recognition windows: one up to 45 s, else cut at word ends every 30 s, every unit in one window', () => {
  const units = spelled(Array.from({ length: 100 }, () => 'ab'));
  const short = recognitionWindows(40, units, []);
  assert.deepEqual(
    short.map((w) => [w.start, w.end, w.units.length]),
    [[0, 40, 100]],
  );
  // one word a second, unit 50 not placed
  const spans: UnitSpan[] = units
    .map((_, i) => ({ unit: i, start: i, end: i + 0.8, confidence: 1, phones: [] }))
    .filter((s) => s.unit !== 50);
  const ws = recognitionWindows(100, units, spans);
  assert.ok(ws.length >= 3);
  assert.equal(ws[0]!.start, 0);
  assert.equal(ws[ws.length - 1]!.end, 100);
  for (let k = 1; k < ws.length; k++) assert.equal(ws[k]!.start, ws[k - 1]!.end);
  assert.equal(
    ws.reduce((a, w) => a + w.units.length, 0),
    100,
  );
  // the unplaced unit goes with the last placed one before it
  const with49 = ws.find((w) => w.units.includes(units[49]!))!;
  assert.ok(with49.units.includes(units[50]!));
});
