// A long-lived thread keeps at most MAX_ADAPTED_DECODERS adapted models loaded: aligning with one model
// after another (a server thread serving many projects) unloads the least recently used, and the next
// use of an unloaded model loads it again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAdaptedDecoder } from '../backend.ts';
import { loadAcousticModel } from '../model/acoustic-model.ts';
import { resolveHmmModel } from '../models.ts';
import { MAX_ADAPTED_DECODERS, adaptedDecoderIds } from './adapted-decoders.ts';
import { mixtureProbabilities } from './map.ts';
import { modelParams, readTransitionFile, writeModelDir } from './model-dir.ts';

test('a thread keeps the most recently used adapted models loaded, not every one it used', async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'tz-adapted-lru-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const base = resolveHmmModel('en', 'full');
  const m = loadAcousticModel({ dir: base.hmm, featParams: base.featParams });
  const params = modelParams(m, mixtureProbabilities(m), readTransitionFile(base.hmm));
  const dirs = Array.from({ length: MAX_ADAPTED_DECODERS + 2 }, (_, k) => {
    const dir = join(work, `model-${k}`);
    const manifest = writeModelDir(dir, params, base, {
      language: 'eng',
      extraPhones: [],
      corpus: { recordings: 0, seconds: 0, hours: 0, frames: 0, groundTruthWords: 0 },
      iterations: [],
      moved: 0,
      gaussians: 0,
      tool: 'test',
    });
    return { dir, id: manifest.id };
  });
  const first = await loadAdaptedDecoder(dirs[0]!.dir, 'en');
  // the same model again: the same decoder, no second load
  assert.equal(await loadAdaptedDecoder(dirs[0]!.dir, 'en'), first);
  for (const d of dirs.slice(1)) await loadAdaptedDecoder(d.dir, 'en');
  assert.deepEqual(
    adaptedDecoderIds(),
    dirs.slice(-MAX_ADAPTED_DECODERS).map((d) => d.id),
    'the least recently used went',
  );
  // the first model was unloaded: using it again loads it afresh and unloads the oldest kept one
  const again = await loadAdaptedDecoder(dirs[0]!.dir, 'en');
  assert.notEqual(again, first);
  assert.equal(again.spec.id, dirs[0]!.id);
  assert.deepEqual(adaptedDecoderIds(), [
    ...dirs.slice(-MAX_ADAPTED_DECODERS + 1).map((d) => d.id),
    dirs[0]!.id,
  ]);
});
