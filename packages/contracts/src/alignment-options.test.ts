// The one request → engine mapping, and stored options read back through their schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AlignmentOptions, engineOptionsOf, parseStoredOptions } from './alignment-options.ts';

test('every request option reaches the engine under its own name', () => {
  const req = AlignmentOptions.parse({
    precision: 'high',
    normalize: false,
    remove_fillers: true,
    numbers_to_words: false,
    engine: 'hmm',
    input_kind: 'ipa',
  });
  assert.deepEqual(engineOptionsOf(req), {
    precision: 'high',
    normalize: false,
    removeFillers: true,
    numbersToWords: false,
    engine: 'hmm',
    inputKind: 'ipa',
  });
  // the contract's defaults are the engine's defaults
  assert.deepEqual(engineOptionsOf(AlignmentOptions.parse({})), {
    precision: 'standard',
    normalize: true,
    removeFillers: false,
    numbersToWords: true,
    engine: 'auto',
    inputKind: 'orthography',
  });
  // one key per request option: an option added to the schema and not mapped fails here
  assert.equal(Object.keys(engineOptionsOf(req)).length, Object.keys(AlignmentOptions.shape).length);
});

test('stored options are parsed with their schema: defaults for an old row, an error for a wrong one', () => {
  assert.deepEqual(parseStoredOptions(null), AlignmentOptions.parse({}));
  assert.deepEqual(parseStoredOptions('{"precision":"ultra"}'), {
    ...AlignmentOptions.parse({}),
    precision: 'ultra',
  });
  assert.throws(() => parseStoredOptions('{"precision":"extreme"}'));
  assert.throws(() => parseStoredOptions('{"engine":42}'));
});
