// Two hours of synthetic speech through the whole mms back-end (windows, stitching, banded Viterbi, spans,
// the windowed recognition pass) in bounded memory. The samples are generated window by window and never
// exist at once (as 16 kHz float they would take 460 MB), so the back-end is driven from its emissions
// rather than through align(), which holds the decoded file; the check is on peak RSS growth, never on
// time. This file runs in its own process (node --test isolates files), so the peak is this test's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installTinyModel, repeatingSource } from '@tazamun/aligner/testing/tiny-model';
import type { SampleSource } from './emissions.ts';
import { FRAME_STRIDE, sliceEmissions } from './emissions.ts';
import { loadMmsBackend } from './backend.ts';
import type { MmsBackend } from './backend.ts';
import { poolRecognitions, recognitionWindows } from '../../metrics/recognition.ts';
import { SAMPLE_RATE } from '../../audio/decode.ts';
import type { SourceWord } from '../../text/normalize.ts';

/** align + recognise as the engine runs them (whole-file search, 30 s recognition windows), from a source. */
async function alignSource(backend: MmsBackend, source: SampleSource, words: SourceWord[]) {
  const tokens = words.map((w) => ({ text: w.text, wordIndex: w.index }));
  const { units } = await backend.pronounce(tokens, 'eng', 'orthography');
  const em = await backend.emissions(source);
  const spans = backend.alignEmissions(em, units, { offset: 0, garbage: true });
  const frameOf = (t: number): number => Math.round((t * SAMPLE_RATE) / FRAME_STRIDE);
  const recognition = poolRecognitions(
    recognitionWindows(source.length / SAMPLE_RATE, units, spans).map((w) =>
      backend.recogniseEmissions(
        sliceEmissions(em, frameOf(w.start), Math.min(em.frames, frameOf(w.end))),
        w.units,
      ),
    ),
  );
  return { units, spans, recognition };
}

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
  // Warm up (load onnxruntime and the model) so the baseline includes them.
  await alignSource(
    await loadMmsBackend({ modelPath }),
    repeatingSource(period, 16000 * 4),
    words.slice(0, 10),
  );
  const before = process.resourceUsage().maxRSS * 1024;
  const backend = await loadMmsBackend({ modelPath, bandSeconds: 20 });
  const r = await alignSource(backend, source, words);
  const grew = process.resourceUsage().maxRSS * 1024 - before;

  assert.equal(r.units.length, n);
  // every word aligned: one span per unit, in order
  assert.equal(r.spans.length, n);
  assert.ok(r.spans.every((s, i) => s.unit === i));
  // Spot checks along the file: word i's tones start at i * 0.4 s (the default pads take one frame before).
  for (const i of [0, 1, Math.floor(n / 2), n - 1]) {
    const w = r.spans[i]!;
    assert.ok(Math.abs(w.start - (i * 0.4 - 0.02)) <= 0.025, `word ${i} starts at ${w.start}`);
  }
  assert.equal(r.recognition.cer, 0);
  // Emissions are 124 bytes per 20 ms frame (45 MB for 2 h); the samples alone would be 460 MB.
  assert.ok(grew < 300 * 1024 * 1024, `peak RSS grew by ${(grew / 1048576).toFixed(0)} MB`);
  t.diagnostic(`peak RSS growth ${(grew / 1048576).toFixed(0)} MB for ${seconds} s of audio`);
});
