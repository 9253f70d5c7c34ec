import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UnitSpan } from '../backend.ts';
import { suspectUnits } from './backend.ts';

function span(unit: number, start: number, end: number, confidence: number, phones: number): UnitSpan {
  const step = (end - start) / phones;
  return {
    unit,
    start,
    end,
    confidence,
    phones: Array.from({ length: phones }, (_, k) => ({
      phone: 'AH',
      start: start + k * step,
      end: start + (k + 1) * step,
      confidence,
    })),
  };
}

test('a word far longer than its phones is suspect; a short drawn-out word is not', () => {
  const spans = [
    span(0, 0.0, 0.3, 0.95, 3),
    // two phones over 0.7 s: 350 ms a phone
    span(1, 0.3, 1.0, 0.95, 2),
    // one phone over 0.35 s: long for its phone, but under the 0.4 s floor
    span(2, 1.0, 1.35, 0.95, 1),
    span(3, 1.35, 1.7, 0.95, 4),
  ];
  assert.deepEqual([...suspectUnits(spans)], [1]);
});

test('a word forced onto audio that fits it far worse than the window median is suspect', () => {
  const spans = [0.95, 0.94, 0.8, 0.96, 0.9].map((p, i) => span(i, i * 0.3, i * 0.3 + 0.3, p, 3));
  // median 0.94: 0.8 is more than 0.1 below it, 0.9 is not
  assert.deepEqual([...suspectUnits(spans)], [2]);
});

test('a window whose words all fit poorly (a language on a borrowed model) is not suspect', () => {
  const spans = [0.82, 0.84, 0.83, 0.81].map((p, i) => span(i, i * 0.3, i * 0.3 + 0.3, p, 3));
  assert.equal(suspectUnits(spans).size, 0);
});
