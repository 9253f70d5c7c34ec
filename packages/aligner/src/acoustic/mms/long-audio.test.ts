// Two hours of synthetic speech through the whole mms path (windows, stitching, banded Viterbi, spans) in
// bounded memory. The samples are generated window by window and never exist at once (as 16 kHz float they
// would take 460 MB); the check is on peak RSS growth, never on time. This file runs in its own process
// (node --test isolates files), so the peak is this test's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alignWordsWithMms } from './align-mms.ts';
import { installTinyModel, repeatingSource } from '@tazamun/aligner/testing/tiny-model';
import type { SourceWord } from '../../text/normalize.ts';

test('a 2-hour input aligns in bounded memory', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tz-long-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const modelPath = installTinyModel(join(dir, 'mms'));
  // One word "bad" every 0.4 s: 9 frames of tones, 11 of silence.
  const period = [
    { letter: 'b', frames: 3 },
    { letter: 'a', frames: 3 },
    { letter: 'd', frames: 3 },
    { frames: 11 },
  ];
  const seconds = 2 * 3600;
  const source = repeatingSource(period, seconds * 16000);
  const n = Math.floor(seconds / 0.4);
  const words: SourceWord[] = Array.from({ length: n }, (_, i) => ({
    index: i,
    text: 'bad',
    charStart: 4 * i,
    charEnd: 4 * i + 3,
  }));
  const tokens = words.map((w) => ({ text: w.text, wordIndex: w.index }));

  // Warm up (load onnxruntime and the model) so the baseline includes them.
  await alignWordsWithMms(repeatingSource(period, 16000 * 4), words.slice(0, 10), tokens.slice(0, 10), {
    modelPath,
  });
  const before = process.resourceUsage().maxRSS * 1024;
  const r = await alignWordsWithMms(source, words, tokens, { modelPath, bandSeconds: 20 });
  const grew = process.resourceUsage().maxRSS * 1024 - before;

  assert.equal(r.words.length, n);
  assert.ok(r.words.every((w) => w.status === 'aligned'));
  // Spot checks along the file: word i's tones start at i * 0.4 s (the default pads take one frame before).
  for (const i of [0, 1, Math.floor(n / 2), n - 1]) {
    const w = r.words[i]!;
    assert.ok(Math.abs(w.start! - (i * 0.4 - 0.02)) <= 0.025, `word ${i} starts at ${w.start}`);
  }
  assert.equal(r.recognition!.cer, 0);
  // Emissions are 124 bytes per 20 ms frame (45 MB for 2 h); the samples alone would be 460 MB.
  assert.ok(grew < 300 * 1024 * 1024, `peak RSS grew by ${(grew / 1048576).toFixed(0)} MB`);
  t.diagnostic(`peak RSS growth ${(grew / 1048576).toFixed(0)} MB for ${seconds} s of audio`);
});
