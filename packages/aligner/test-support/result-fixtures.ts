// Alignment results for the format tests, built through the normaliser so offsets and indexes are real.
import type { AlignmentResult, WordTiming } from '@tazamun/contracts/alignment-result';
import { normalizeTranscript } from '../src/text/normalize.ts';

/**
 * A result for `text` where word i (of the words that are spoken) lasts `step` seconds after a 0.25 s
 * lead, with a 0.1 s pause between words; the words listed in `missing` are not_found.
 */
export function makeResult(
  text: string,
  lang = 'eng',
  opts: { missing?: number[]; step?: number; phones?: boolean } = {},
): AlignmentResult {
  const { words, tokens, processedText } = normalizeTranscript(text, lang);
  const step = opts.step ?? 0.4;
  let t = 0.25;
  const out: WordTiming[] = words.map((w) => {
    const normalized = tokens
      .filter((k) => k.wordIndex === w.index)
      .map((k) => k.text)
      .join(' ');
    if (opts.missing?.includes(w.index)) {
      return {
        index: w.index,
        word: w.text,
        normalized,
        start: null,
        end: null,
        duration: null,
        confidence: 0,
        status: 'not_found',
        phones: [],
        char_start: w.charStart,
        char_end: w.charEnd,
      };
    }
    const start = t;
    const end = t + step;
    t = end + 0.1;
    const half = (start + end) / 2;
    return {
      index: w.index,
      word: w.text,
      normalized,
      start,
      end,
      duration: end - start,
      confidence: 0.9,
      status: 'aligned',
      phones:
        opts.phones === false
          ? []
          : [
              { phone: 'ɑ', model_phone: 'AA', start, end: half, confidence: 0.8 },
              { phone: 'b', model_phone: 'B', start: half, end },
            ],
      char_start: w.charStart,
      char_end: w.charEnd,
    };
  });
  const aligned = out.filter((w) => w.status === 'aligned');
  const duration = t + 0.5;
  return {
    schema_version: 1,
    language: lang,
    engine: { backend: 'hmm', model: 'test', version: '0', precision: 'standard', route: 'dictionary' },
    audio: {
      duration,
      sample_rate: 16000,
      channels: 1,
      format: 'wav',
      peak_dbfs: -3,
      clipping_ratio: 0,
      silence_ratio: 0.2,
    },
    text: { original: text, processed: processedText, input_kind: 'orthography' },
    words: out,
    segments: [
      {
        index: 0,
        text,
        start: aligned[0]?.start ?? null,
        end: aligned[aligned.length - 1]?.end ?? null,
        word_start: 0,
        word_end: out.length,
        confidence: 0.9,
      },
    ],
    metrics: {
      coverage: out.length ? aligned.length / out.length : 0,
      mean_confidence: 0.9,
      wer: null,
      cer: null,
      wer_method: 'none: test fixture',
      phone_error_rate: null,
      speech_seconds: duration - 0.5,
      untranscribed_speech_seconds: 0,
      words_total: out.length,
      words_aligned: aligned.length,
      audio_duration: duration,
      processing_time: 0.1,
      real_time_factor: 0.1 / duration,
    },
    detected_language: null,
    quality: { verdict: 'good', reasons: [] },
    warnings: [],
  };
}
