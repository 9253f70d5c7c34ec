// A decoder keeps the log-likelihoods of a window's top densities only for the searches whose path feeds
// adaptation statistics (the other searches read the density costs). A window searched first without
// statistics and then with them is scored again for them: its statistics, words and phones must be those of
// a decoder that searched it with statistics from the start, and searches of other windows in between must
// not leak into them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { decodeAudio } from '../../audio/decode.ts';
import { buildGrammar } from '../../align/grammar.ts';
import { evalDir } from '@tazamun/aligner/testing/eval-dir';
import { HmmDecoder } from './decoder.ts';
import { resolveHmmModel } from './models.ts';
import type { AdaptationStats } from './adapt/fmllr.ts';

const EVAL = join(evalDir(), 'timit-dev');

async function utterance(name: string, text: string, decoder: HmmDecoder) {
  const { samples } = await decodeAudio(join(EVAL, `${name}.wav`));
  const units = text
    .toLowerCase()
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => ({
      alternatives: decoder.lookup(w).map((p) => decoder.wordFor(p)),
    }));
  assert.ok(
    units.every((u) => u.alternatives.length > 0),
    'every word is in the dictionary',
  );
  return { samples, grammar: buildGrammar(units, { garbage: [], garbageWeight: 0, openEnd: false }) };
}

const same = (a: AdaptationStats, b: AdaptationStats) => {
  assert.ok(a.frames > 100, `${a.frames} frames collected`);
  assert.equal(a.frames, b.frames);
  a.g.forEach((g, f) => assert.deepEqual(g, b.g[f]));
  a.k.forEach((k, f) => assert.deepEqual(k, b.k[f]));
};

test('a window searched without adaptation statistics, then with them, gives the statistics of one searched with them first', async () => {
  const spec = resolveHmmModel('en', 'full');
  const late = await HmmDecoder.load(spec);
  const first = await HmmDecoder.load(spec);
  const a = await utterance('dr1-fvmh0_sa1', 'She had your dark suit in greasy wash water all year', late);
  const b = await utterance('dr1-fvmh0_sa2', "Don't ask me to carry an oily rag like that", late);
  // the late decoder: a plain search, another window's searches, then the statistics
  const plain = await late.run(a.samples, a.grammar, 1);
  await late.run(b.samples, b.grammar, 1);
  const lateStats = late.adaptationStats();
  const withStats = await late.run(a.samples, a.grammar, 1, lateStats);
  // and again without: the window kept for statistics serves a plain search as well
  const plainAgain = await late.run(a.samples, a.grammar, 1);
  // the other decoder collects from its first search
  const a2 = await utterance('dr1-fvmh0_sa1', 'She had your dark suit in greasy wash water all year', first);
  const firstStats = first.adaptationStats();
  const reference = await first.run(a2.samples, a2.grammar, 1, firstStats);
  same(lateStats, firstStats);
  assert.ok(plain && withStats && plainAgain && reference);
  assert.deepEqual(withStats, reference);
  assert.deepEqual(plain, reference);
  assert.deepEqual(plainAgain, reference);
  // the second window's statistics too, after the first window's were collected
  const bStats = late.adaptationStats();
  await late.run(b.samples, b.grammar, 1, bStats);
  const bFirst = first.adaptationStats();
  const b2 = await utterance('dr1-fvmh0_sa2', "Don't ask me to carry an oily rag like that", first);
  await first.run(b2.samples, b2.grammar, 1, bFirst);
  same(bStats, bFirst);
});
