import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeThrown } from './errors.ts';

test('whatever a thread throws becomes words, never [object Object] (issue 11)', () => {
  assert.equal(describeThrown(new RangeError('Invalid array length')), 'Invalid array length');
  assert.equal(describeThrown(new Error('')), 'Error');
  assert.equal(describeThrown('word is not defined'), 'word is not defined');
  assert.equal(describeThrown(''), 'unknown error');
  assert.equal(
    describeThrown({ message: 'Failed to start utterance processing' }),
    'Failed to start utterance processing',
  );
  assert.equal(describeThrown({ error: 'no decoder' }), 'no decoder');
  assert.equal(
    describeThrown({ status: -1, where: 'process_audio' }),
    '{"status":-1,"where":"process_audio"}',
  );
  // Emscripten's exit(): a plain object named ExitStatus
  assert.match(describeThrown({ name: 'ExitStatus', status: 1 }), /decoder aborted \(exit status 1\)/);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.equal(describeThrown(cyclic), 'Object thrown');
  assert.equal(describeThrown({}), 'Object thrown');
  assert.equal(describeThrown(42), '42');
  assert.equal(describeThrown(undefined), 'undefined');
});
