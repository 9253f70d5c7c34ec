// The request-to-engine options mapper, and align() told where its samples came from (issue 16 item 8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AlignmentOptions } from '@tazamun/contracts/alignments';
import { JobBoundsError } from '@tazamun/contracts/job-bounds';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';
import { decodeAudio } from './audio/decode.ts';
import { align } from './engine.ts';
import { alignOptionsFromRequest } from './options.ts';

const UTT = join(evalDir(), 'timit-dev', 'dr1-fvmh0_sa1');

test('every request option reaches the engine under its own name, the context beside it', () => {
  const req = AlignmentOptions.parse({
    precision: 'high',
    normalize: false,
    remove_fillers: true,
    numbers_to_words: false,
    engine: 'hmm',
    input_kind: 'ipa',
  });
  const lexicon = [{ word: 'tazamun', ipa: 'tazaːmun' }];
  assert.deepEqual(alignOptionsFromRequest(req, { lang: 'ara', lexicon, recognition: false }), {
    lang: 'ara',
    lexicon,
    recognition: false,
    precision: 'high',
    normalize: false,
    removeFillers: true,
    numbersToWords: false,
    engine: 'hmm',
    inputKind: 'ipa',
  });
  // the contract's defaults are the engine's defaults
  assert.deepEqual(alignOptionsFromRequest(AlignmentOptions.parse({}), { lang: 'eng' }), {
    lang: 'eng',
    precision: 'standard',
    normalize: true,
    removeFillers: false,
    numbersToWords: true,
    engine: 'auto',
    inputKind: 'orthography',
  });
});

test('samples aligned with audioInfo report the source file in the audio block, not raw PCM', async () => {
  const { samples } = await decodeAudio(`${UTT}.wav`);
  const text = 'She had your dark suit in greasy wash water all year';
  const opts = alignOptionsFromRequest(AlignmentOptions.parse({}), {
    lang: 'eng',
    recognition: false,
    audioInfo: { format: 'mp3', sampleRate: 44100, channels: 2 },
  });
  const res = await align(samples, text, opts);
  assert.deepEqual([res.audio.format, res.audio.sample_rate, res.audio.channels], ['mp3', 44100, 2]);
  assert.equal(res.metrics.coverage, 1);
  const bare = await align(samples, text, { lang: 'eng', recognition: false });
  assert.deepEqual([bare.audio.format, bare.audio.sample_rate, bare.audio.channels], ['pcm_f32le', 16000, 1]);
  // the source's rate is held to the job bounds like a file's: 4 kHz is refused before any search
  await assert.rejects(
    align(samples, text, { ...opts, audioInfo: { format: 'wav', sampleRate: 4000, channels: 1 } }),
    (e: unknown) => e instanceof JobBoundsError && e.code === 'audio_sample_rate_too_low',
  );
});
