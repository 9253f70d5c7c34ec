// A whole-recording re-run keeps what a person corrected: their words as they placed them, the engine's
// neighbours trimmed around them, nothing kept when the transcripts differ.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AlignmentResult, WordTiming } from '@tazamun/contracts/alignment-result';
import { keepCorrections } from './keep-corrections.ts';

function word(index: number, text: string, start: number, end: number, corrected = false): WordTiming {
  const mid = (start + end) / 2;
  return {
    index,
    word: text,
    normalized: text,
    start,
    end,
    duration: end - start,
    confidence: 0.9,
    status: 'aligned',
    phones: [
      { phone: 'a', model_phone: 'AA', start, end: mid },
      { phone: 'b', model_phone: 'B', start: mid, end },
    ],
    char_start: index * 2,
    char_end: index * 2 + 1,
    ...(corrected ? { hand_corrected: true as const } : {}),
  };
}

function result(words: WordTiming[]): AlignmentResult {
  return {
    schema_version: 1,
    language: 'eng',
    engine: { backend: 'hmm', model: 'm', version: '1', precision: 'standard', route: 'dictionary' },
    audio: {
      duration: 10,
      sample_rate: 16000,
      channels: 1,
      format: 'wav',
      peak_dbfs: -3,
      clipping_ratio: 0,
      silence_ratio: 0.1,
    },
    text: { original: words.map((w) => w.word).join(' '), processed: '', input_kind: 'orthography' },
    words,
    segments: [
      {
        index: 0,
        text: '',
        start: words[0]!.start,
        end: words.at(-1)!.end,
        word_start: 0,
        word_end: words.length,
        confidence: 0.9,
      },
    ],
    metrics: {
      coverage: 1,
      mean_confidence: 0.9,
      wer: null,
      cer: null,
      wer_method: 'none',
      phone_error_rate: null,
      speech_seconds: 5,
      untranscribed_speech_seconds: 0,
      words_total: words.length,
      words_aligned: words.length,
      audio_duration: 10,
      processing_time: 1,
      real_time_factor: 0.1,
    },
    detected_language: 'eng',
    quality: { verdict: 'good', reasons: [] },
    warnings: [],
  };
}

test('corrected words keep their times; the fresh neighbours give way; the rest is the fresh alignment', () => {
  const latest = result([word(0, 'a', 1, 2), word(1, 'b', 2.5, 3.5, true), word(2, 'c', 4, 5)]);
  const fresh = result([word(0, 'a', 1.1, 2.8), word(1, 'b', 2.8, 3.2), word(2, 'c', 3.3, 5.2)]);
  fresh.engine.model = 'adapted';
  const kept = keepCorrections(latest, fresh)!;
  assert.equal(kept.kept, 1);
  const w = kept.result.words;
  assert.deepEqual([w[1]!.start, w[1]!.end, w[1]!.hand_corrected], [2.5, 3.5, true]);
  // "a" now ends where the corrected "b" starts, "c" starts where it ends; phones clipped alike
  assert.deepEqual([w[0]!.start, w[0]!.end], [1.1, 2.5]);
  assert.deepEqual([w[2]!.start, w[2]!.end], [3.5, 5.2]);
  assert.ok(w[0]!.phones.every((p) => p.end <= 2.5 && p.start >= 1.1));
  assert.ok(w[2]!.phones.every((p) => p.start >= 3.5));
  assert.equal(kept.result.engine.model, 'adapted');
  assert.deepEqual(kept.changed, [0, 2]);
  assert.deepEqual([kept.result.segments[0]!.start, kept.result.segments[0]!.end], [1.1, 5.2]);
});

test('a neighbour the corrected word covers whole is not found; other transcripts keep nothing', () => {
  const latest = result([word(0, 'a', 1, 3, true), word(1, 'b', 3, 4)]);
  const fresh = result([word(0, 'a', 1, 1.5), word(1, 'b', 1.6, 2.9)]);
  const kept = keepCorrections(latest, fresh)!;
  assert.equal(kept.result.words[1]!.status, 'not_found');
  assert.equal(kept.result.words[1]!.start, null);
  assert.equal(kept.result.metrics.words_aligned, 1);
  assert.equal(keepCorrections(latest, result([word(0, 'a', 1, 2), word(1, 'x', 2, 3)])), null);
  assert.equal(keepCorrections(latest, result([word(0, 'a', 1, 2)])), null);
});
