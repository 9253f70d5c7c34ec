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
