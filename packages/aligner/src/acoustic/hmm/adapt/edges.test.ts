// The word-edge correction learnt from hand corrections: from a corpus where the model places words
// with a known bias (starts after a pause 30 ms late, ends before a pause 20 ms early, nothing between
// words), the table must learn the bias, shrink the rarely seen, ignore a grossly misplaced word, and
// applied to other recordings with the same bias bring their edges back, keeping words in order and
// every phone inside its word.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UnitSpan } from '../../backend.ts';
import {
  EDGE_CLIP,
  asStandIns,
  restoreLabels,
  broadClass,
  correctSpans,
  correctedEdges,
  edgeKeys,
  edgeShift,
  learnEdgeCorrection,
  phoneClasses,
} from './edges.ts';
import type { EdgeWord } from './edges.ts';
import { phoneSet } from '../phone-map.ts';

const classes = phoneClasses(phoneSet('en').native);

test('broad classes of IPA phones and of the model phones', () => {
  assert.equal(broadClass('ɑ'), 'V');
  assert.equal(broadClass('ɑ̃'), 'V');
  assert.equal(broadClass('tʃ'), 'S');
  assert.equal(broadClass('tˤ'), 'S');
  assert.equal(broadClass('ħ'), 'F');
  assert.equal(broadClass('ŋ'), 'N');
  assert.equal(broadClass('ɹ'), 'L');
  assert.equal(classes.AA, 'V');
  assert.equal(classes.SH, 'F');
  assert.equal(classes.M, 'N');
  assert.equal(classes.SIL, undefined);
});

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 0.5) / 2 ** 32;
  };
}

/** A recording as a person placed it: runs of 2-4 joined words between pauses, edge phones drawn. */
function personWords(rand: () => number): EdgeWord[] {
  const labels = ['AA', 'T', 'S', 'M', 'L', 'IY'];
  const out: EdgeWord[] = [];
  let at = 0.3;
  for (let run = 0; run < 3; run++) {
    const n = 2 + Math.floor(rand() * 3);
    for (let k = 0; k < n; k++) {
      const len = 0.2 + 0.3 * rand();
      const pick = () => labels[Math.floor(rand() * labels.length)]!;
      out.push({ start: at, end: at + len, first: pick(), last: pick() });
      at += len;
    }
    at += 0.3;
  }
  return out;
}

/** The model's placement of them: starts after a pause 30 ms late, ends before one 20 ms early, ±5 ms. */
function modelWords(person: EdgeWord[], rand: () => number): EdgeWord[] {
  return person.map((w, i) => {
    const keys = edgeKeys(person, i, classes);
    const jitter = () => (rand() - 0.5) * 0.01;
    return {
      ...w,
      // (a join between words stays one edge: no jitter there)
      start: w.start + (keys.start.startsWith('s:P') ? 0.03 + jitter() : 0),
      end: w.end + (keys.end.endsWith('P') ? -0.02 + jitter() : 0),
    };
  });
}

test('a corpus with a known offset: the table learns it, by kind of edge, and shrinks the rarely seen', () => {
  const rand = seeded(7);
  const recordings = Array.from({ length: 40 }, () => {
    const person = personWords(rand);
    return { words: modelWords(person, rand), person: person.map((w) => ({ start: w.start, end: w.end })) };
  });
  // one word a person placed far from where the model put it, and one the person did not place
  recordings[0]!.person[1] = {
    start: recordings[0]!.person[1]!.start + 0.6,
    end: recordings[0]!.person[1]!.end + 0.6,
  };
  (recordings[1]!.person as ({ start: number; end: number } | null)[])[0] = null;
  const c = learnEdgeCorrection(recordings, classes);
  assert.equal(c.words, recordings.reduce((n, r) => n + r.words.length, 0) - 1);
  // the parents: starts at a pause 30 ms late, ends at a pause 20 ms early, joins unbiased
  assert.ok(Math.abs(c.entries['s:P']!.mean - 0.03) < 0.003, JSON.stringify(c.entries['s:P']));
  assert.ok(Math.abs(c.entries['e:P']!.mean + 0.02) < 0.003, JSON.stringify(c.entries['e:P']));
  assert.ok(Math.abs(c.entries['s:J']!.mean) < 0.01, JSON.stringify(c.entries['s:J']));
  // the misplaced word counts as EDGE_CLIP, not 600 ms
  for (const e of Object.values(c.entries)) assert.ok(Math.abs(e.mean) <= EDGE_CLIP);
  // an entry seen often moves its edges by nearly its mean; one never seen by its parent's, shrunk
  const seen = Object.entries(c.entries).find(
    ([k, e]) => k.startsWith('s:P') && k.length === 4 && e.n >= 15,
  )!;
  assert.ok(Math.abs(edgeShift(c, seen[0]) + 0.03) < 0.006, `${seen[0]}: ${edgeShift(c, seen[0])}`);
  const parent = c.entries['s:P']!;
  const unseen = edgeShift(c, 's:PX');
  assert.ok(
    Math.abs(unseen + (parent.n * parent.mean) / (parent.n + c.shrinkParent)) < 1e-9,
    `an unseen key takes its parent's shrunk offset (${unseen})`,
  );
  // a table learnt from three words barely moves anything
  const few = learnEdgeCorrection(
    [{ words: recordings[2]!.words.slice(0, 3), person: recordings[2]!.person.slice(0, 3) }],
    classes,
  );
  assert.ok(Math.abs(edgeShift(few, 's:PV')) < 0.01, `${edgeShift(few, 's:PV')}`);

  // other recordings with the same bias: the correction brings their edges back
  const error = (
    a: readonly { start: number; end: number }[],
    b: readonly { start: number; end: number }[],
  ) =>
    a.reduce((s, w, i) => s + Math.abs(w.start - b[i]!.start) + Math.abs(w.end - b[i]!.end), 0) /
    (2 * a.length);
  let before = 0;
  let after = 0;
  for (let r = 0; r < 10; r++) {
    const person = personWords(rand);
    const model = modelWords(person, rand);
    const fixed = correctedEdges(model, c, 100);
    before += error(model, person);
    after += error(fixed, person);
    fixed.forEach((w, i) => {
      assert.ok(w.end > w.start);
      if (i > 0) assert.ok(w.start >= fixed[i - 1]!.end - 1e-9, 'words stay in order');
    });
  }
  assert.ok(
    after < before / 2,
    `mean edge error ${((before / 10) * 1000).toFixed(1)} -> ${((after / 10) * 1000).toFixed(1)} ms`,
  );
});

test('spans corrected: a word of two units moves as one, its phones stay inside it and in order', () => {
  const c = learnEdgeCorrection([], classes);
  // a table by hand: starts after a pause 40 ms early (move later), joins of S then V 15 ms late
  c.entries = {
    's:P': { n: 1000, mean: -0.04 },
    's:PS': { n: 1000, mean: -0.04 },
    'e:J': { n: 1000, mean: 0.015 },
    'e:SV': { n: 1000, mean: 0.015 },
    's:J': { n: 1000, mean: 0.015 },
    's:SV': { n: 1000, mean: 0.015 },
  };
  const span = (unit: number, phones: [string, number, number][]): UnitSpan => ({
    unit,
    start: phones[0]![1],
    end: phones[phones.length - 1]![2],
    confidence: 0.9,
    phones: phones.map(([phone, start, end]) => ({ phone, start, end, confidence: 0.9 })),
  });
  const spans = [
    // word 0, two units: "T AH" + "T", starting after silence
    span(0, [
      ['T', 0.5, 0.52],
      ['AH', 0.52, 0.6],
    ]),
    span(1, [['T', 0.6, 0.7]]),
    // word 1 joined to word 0: S then V
    span(2, [
      ['AA', 0.7, 0.8],
      ['M', 0.8, 0.9],
    ]),
  ];
  const wordOf = (u: number) => (u < 2 ? 0 : 1);
  const out = correctSpans(spans, wordOf, c, 2);
  const shiftStart = edgeShift(c, 's:PS');
  assert.ok(shiftStart > 0.035);
  // the first unit's start and first phone moved later; the first phone kept at least 10 ms
  assert.equal(out[0]!.start, Math.round((0.5 + shiftStart) * 1e4) / 1e4);
  assert.equal(out[0]!.phones[0]!.start, out[0]!.start);
  assert.ok(out[0]!.phones[0]!.end - out[0]!.phones[0]!.start >= 0.01 - 1e-9);
  // the join between the words: both sides moved alike (earlier), word 0's last unit ends where word 1 starts
  assert.ok(
    out[1]!.end < 0.7 && Math.abs(out[1]!.end - out[2]!.start) < 1e-9,
    `${out[1]!.end} ${out[2]!.start}`,
  );
  assert.equal(out[1]!.phones[0]!.end, out[1]!.end);
  // the unit inside word 0 kept its inner edge
  assert.equal(out[1]!.start, 0.6);
  for (const s of out)
    for (let k = 0; k < s.phones.length; k++) {
      const p = s.phones[k]!;
      assert.ok(p.end > p.start && p.start >= s.start - 1e-9 && p.end <= s.end + 1e-9, JSON.stringify(s));
      if (k > 0) assert.ok(p.start >= s.phones[k - 1]!.end - 1e-9);
    }
  // the spans given are left as they were
  assert.equal(spans[0]!.start, 0.5);
});

test("an adapted model's own phones are named as their parents for the edge refinement, and named back", () => {
  const spans: UnitSpan[] = [
    {
      unit: 0,
      start: 0.2,
      end: 0.5,
      confidence: 1,
      phones: [
        { phone: 'ar_ain', start: 0.2, end: 0.3, confidence: 1 },
        { phone: 'AA', start: 0.3, end: 0.5, confidence: 1 },
      ],
    },
  ];
  assert.equal(asStandIns(spans, []), null);
  const named = asStandIns(spans, [{ phone: 'ar_ain', from: 'HH' }])!;
  assert.deepEqual(
    named[0]!.phones.map((p) => p.phone),
    ['HH', 'AA'],
  );
  assert.equal(spans[0]!.phones[0]!.phone, 'ar_ain', 'the spans given are left as they were');
  const moved = named.map((s) => ({
    ...s,
    start: 0.15,
    phones: s.phones.map((p, k) => (k ? p : { ...p, start: 0.15 })),
  }));
  const back = restoreLabels(moved, spans);
  assert.equal(back[0]!.phones[0]!.phone, 'ar_ain');
  assert.equal(back[0]!.phones[0]!.start, 0.15);
});
