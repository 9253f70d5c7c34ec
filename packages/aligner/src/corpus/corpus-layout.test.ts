import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pairCorpus } from './corpus-layout.ts';

test('recordings pair with the transcript of the same base name at any depth, .lab before .txt', () => {
  const layout = pairCorpus([
    'spk1/utt0.wav',
    'spk1/utt0.txt',
    'spk0/utt0.WAV',
    'spk0/utt0.lab',
    'spk0/utt0.txt',
    'a/b/c/deep.mp3',
    'a/b/c/deep.TextGrid',
    'alone.ogg',
    'orphan.lab',
    'notes.md',
    '__MACOSX/spk0/._utt0.wav',
    '.DS_Store',
    'spk0/',
  ]);
  assert.deepEqual(layout.pairs, [
    { base: 'a/b/c/deep', audio: 'a/b/c/deep.mp3', transcript: 'a/b/c/deep.TextGrid' },
    { base: 'spk0/utt0', audio: 'spk0/utt0.WAV', transcript: 'spk0/utt0.lab' },
    { base: 'spk1/utt0', audio: 'spk1/utt0.wav', transcript: 'spk1/utt0.txt' },
  ]);
  assert.deepEqual(layout.skipped, [
    { name: 'alone.ogg', reason: 'no_transcript' },
    { name: 'notes.md', reason: 'not_corpus_file' },
    { name: 'orphan.lab', reason: 'no_recording' },
    { name: 'spk0/utt0.txt', reason: 'duplicate_transcript' },
  ]);
});

test('two recordings of one base name: the first by name is kept', () => {
  const layout = pairCorpus(['x.wav', 'x.mp3', 'x.txt']);
  assert.deepEqual(layout.pairs, [{ base: 'x', audio: 'x.mp3', transcript: 'x.txt' }]);
  assert.deepEqual(layout.skipped, [{ name: 'x.wav', reason: 'duplicate_recording' }]);
});
