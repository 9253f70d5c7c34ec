import { test } from 'node:test';
import assert from 'node:assert/strict';
import { editAlign } from './edit-distance.ts';

test('edit distance and which reference items were hit', () => {
  const r = editAlign(['k', 'ae', 't', 's'], ['k', 'ah', 't']);
  assert.equal(r.distance, 2);
  assert.deepEqual(r.refHit, [true, false, true, false]);
  assert.equal(editAlign([], ['a']).distance, 1);
  assert.deepEqual(editAlign(['a', 'b'], ['a', 'b']).refHit, [true, true]);
});

test('each operation alone: substitution, insertion, deletion, and both sides empty', () => {
  // one substitution: the other items are hits
  assert.deepEqual(editAlign(['a', 'b', 'c'], ['a', 'x', 'c']), { distance: 1, refHit: [true, false, true] });
  // one insertion in the hypothesis costs 1 and every reference item is still hit
  assert.deepEqual(editAlign(['a', 'b'], ['a', 'x', 'b']), { distance: 1, refHit: [true, true] });
  // one deletion: the missing reference item is the only miss
  assert.deepEqual(editAlign(['a', 'b', 'c'], ['a', 'c']), { distance: 1, refHit: [true, false, true] });
  // nothing recognised: every reference item is a deletion
  assert.deepEqual(editAlign(['a', 'b'], []), { distance: 2, refHit: [false, false] });
  assert.deepEqual(editAlign([], []), { distance: 0, refHit: [] });
});

test('the distance is symmetric and never more than the longer sequence', () => {
  const pairs: [string[], string[]][] = [
    [
      ['s', 'ih', 't', 'ih', 'ng'],
      ['k', 'ih', 't', 'ah', 'n'],
    ],
    [
      ['k', 'ae', 't'],
      ['ae', 'k', 't', 's'],
    ],
    [['a'], ['b', 'c', 'd']],
  ];
  for (const [a, b] of pairs) {
    const d = editAlign(a, b).distance;
    assert.equal(d, editAlign(b, a).distance);
    assert.ok(d <= Math.max(a.length, b.length));
    // the hits never exceed what the distance leaves possible
    const hits = editAlign(a, b).refHit.filter(Boolean).length;
    assert.ok(hits >= a.length - d && hits <= Math.min(a.length, b.length));
  }
  // sitting -> kitten (the textbook case): three edits
  assert.equal(editAlign([...'sitting'], [...'kitten']).distance, 3);
});
