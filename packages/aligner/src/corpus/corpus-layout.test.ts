import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pairCorpus, textGridTranscript } from './corpus-layout.ts';

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

const LONG = `File type = "ooTextFile"
Object class = "TextGrid"

xmin = 0
xmax = 2.5
tiers? <exists>
size = 1
item []:
    item [1]:
        class = "IntervalTier"
        name = "utterance"
        xmin = 0
        xmax = 2.5
        intervals: size = 3
        intervals [1]:
            xmin = 0
            xmax = 0.4
            text = ""
        intervals [2]:
            xmin = 0.4
            xmax = 2.1
            text = "she said ""hello"" to"
        intervals [3]:
            xmin = 2.1
            xmax = 2.5
            text = "the class"
`;

test('a TextGrid of one tier gives its labels in order; long and short formats alike', () => {
  assert.deepEqual(textGridTranscript(LONG), { text: 'she said "hello" to the class' });
  const short = [
    'File type = "ooTextFile"',
    'Object class = "TextGrid"',
    '',
    '0',
    '2.5',
    '<exists>',
    '1',
    '"IntervalTier"',
    '"words"',
    '0',
    '2.5',
    '2',
    '0',
    '1.2',
    '"good morning"',
    '1.2',
    '2.5',
    '"everyone"',
  ].join('\n');
  assert.deepEqual(textGridTranscript(`\uFEFF${short}`), { text: 'good morning everyone' });
});

test('a TextGrid of two tiers, or a text that is not a TextGrid, is refused', () => {
  const two = LONG.replace('size = 1', 'size = 2');
  assert.deepEqual(textGridTranscript(two), { error: 'tiers' });
  assert.deepEqual(textGridTranscript('just words'), { error: 'not_textgrid' });
});
