import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorText, reasonOf } from './error-text.ts';

test('whatever a thread throws becomes words, never [object Object]', () => {
  const e = new RangeError('Invalid array length');
  assert.deepEqual(errorText(e), { message: 'Invalid array length', stack: e.stack });
  assert.deepEqual(errorText('word is not defined'), { message: 'word is not defined', stack: null });
  assert.deepEqual(errorText({ message: 'Failed to start utterance processing' }), {
    message: 'Failed to start utterance processing',
    stack: null,
  });
  assert.deepEqual(errorText({ error: 'no decoder' }), { message: 'no decoder', stack: null });
  assert.deepEqual(errorText({ status: -1, where: 'process_audio' }), {
    message: '{"status":-1,"where":"process_audio"}',
    stack: null,
  });
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.deepEqual(errorText(cyclic), { message: 'Object thrown', stack: null });
  assert.deepEqual(errorText({}), { message: 'Object thrown', stack: null });
  assert.deepEqual(errorText(42), { message: '42', stack: null });
  assert.deepEqual(errorText(undefined), { message: 'undefined', stack: null });
  const empty = new Error('');
  assert.deepEqual(errorText(empty), { message: 'Error', stack: empty.stack });
});

test('the reason in a job error is the first line, at most 300 characters', () => {
  assert.equal(reasonOf('memory access out of bounds\n    at wasm://…'), 'memory access out of bounds');
  assert.equal(reasonOf('   '), 'unknown error');
  const long = reasonOf('x'.repeat(1000));
  assert.equal(long.length, 300);
  assert.equal(long.at(-1), '…');
});
