import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  JOB_BOUNDS,
  JobBoundsError,
  assertJobBounds,
  checkJobBounds,
  clockDuration,
  countTranscript,
  transcriptCeiling,
} from './job-bounds.ts';

test('the transcript ceiling grows with the audio from a fixed allowance', () => {
  assert.deepEqual(transcriptCeiling(0), { words: 50, characters: 300 });
  assert.deepEqual(transcriptCeiling(3), { words: 80, characters: 480 });
  assert.deepEqual(transcriptCeiling(3600), { words: 36_050, characters: 216_300 });
});

test('words are runs between white space; characters are code points that are not white space', () => {
  assert.deepEqual(countTranscript('  one two\n\tthree  '), { words: 3, characters: 11 });
  // Arabic with its vowel marks: each mark is a code point of its own
  assert.deepEqual(countTranscript('كَتَبَ'), { words: 1, characters: 6 });
  // a character outside the BMP (two UTF-16 units) counts once; no-break space separates words
  assert.deepEqual(countTranscript('𝒜b\u00a0c'), { words: 2, characters: 3 });
  assert.deepEqual(countTranscript(''), { words: 0, characters: 0 });
  // counting stops once a limit is passed: the count is a bound, not the whole text
  assert.deepEqual(countTranscript('a b c d e f', { words: 2, characters: 100 }), {
    words: 3,
    characters: 3,
  });
});

test('a 2 MB transcript for a 3 s clip is refused with the numbers the message shows', () => {
  const text = 'word '.repeat(400_000);
  assert.equal(text.length, 2_000_000);
  assert.deepEqual(checkJobBounds({ durationSeconds: 3.04, text }), {
    code: 'transcript_too_long',
    params: { seconds: 3, max_words: 80, max_characters: 482 },
  });
  // words alone or characters alone are enough
  assert.equal(checkJobBounds({ durationSeconds: 1, text: 'a '.repeat(61) })?.code, 'transcript_too_long');
  assert.equal(checkJobBounds({ durationSeconds: 1, text: 'x'.repeat(361) })?.code, 'transcript_too_long');
  assert.equal(checkJobBounds({ durationSeconds: 1, text: 'x'.repeat(360) }), null);
  assert.equal(checkJobBounds({ durationSeconds: 1, text: 'a '.repeat(60) }), null);
});

test('real speech passes: 15 s of TIMIT-like reading and a vowelled Arabic sentence', () => {
  const english = 'She had your dark suit in greasy wash water all year. '.repeat(4);
  assert.equal(checkJobBounds({ durationSeconds: 15, text: english, sampleRate: 16000 }), null);
  const arabic = 'ذَهَبَ الطَّالِبُ إِلَى الْمَدْرَسَةِ فِي الصَّبَاحِ الْبَاكِرِ';
  assert.equal(checkJobBounds({ durationSeconds: 4, text: arabic }), null);
});

test('sample rates below 8 kHz are refused; an unknown rate is not checked', () => {
  assert.deepEqual(checkJobBounds({ durationSeconds: 3600, sampleRate: 1 }), {
    code: 'audio_sample_rate_too_low',
    params: { rate: 1, min: 8000 },
  });
  assert.equal(checkJobBounds({ durationSeconds: 3, sampleRate: 7999 })?.code, 'audio_sample_rate_too_low');
  assert.equal(checkJobBounds({ durationSeconds: 3, sampleRate: 8000 }), null);
  assert.equal(checkJobBounds({ durationSeconds: 3, sampleRate: 0 }), null);
  assert.equal(checkJobBounds({ durationSeconds: 3, sampleRate: null }), null);
});

test('the duration ceiling applies when given, with durations written as a clock', () => {
  const max = JOB_BOUNDS.defaultMaxAudioSeconds;
  assert.deepEqual(checkJobBounds({ durationSeconds: max + 1, maxAudioSeconds: max }), {
    code: 'audio_too_long',
    params: { duration: '3:00:01', max: '3:00:00' },
  });
  assert.equal(checkJobBounds({ durationSeconds: max, maxAudioSeconds: max }), null);
  assert.equal(checkJobBounds({ durationSeconds: max * 10 }), null, 'no ceiling given: none applied');
  assert.equal(clockDuration(65), '1:05');
  assert.equal(clockDuration(3909), '1:05:09');
});

test('assertJobBounds throws the catalogue code with the English message for CLI users', () => {
  assert.throws(
    () => assertJobBounds({ durationSeconds: 3, text: 'x'.repeat(1000) }),
    (err: unknown) => {
      assert.ok(err instanceof JobBoundsError);
      assert.equal(err.code, 'transcript_too_long');
      assert.equal(
        err.message,
        'The transcript is far longer than the audio can hold: 3 s of audio fit at most 80 words and 480 characters.',
      );
      return true;
    },
  );
  assert.doesNotThrow(() => assertJobBounds({ durationSeconds: 3, text: 'fine' }));
});
