// The decoder held to the one it replaced: the engine with pocketsphinx's context rules
// (TAZAMUN_EMULATE=pocketsphinx, the "old settings") against the same engine on soundswallower's WASM build,
// on utterances of every dev set. The full sets are measured by `npm run bench -- --mode parity`
// (docs/benchmarks.md); here a sample of each, at the same bar: 98 % of word boundaries within 10 ms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignBoth, compareBoundaries } from '../../bench/parity.ts';
import type { ParityCount } from '../../bench/parity.ts';
import { loadSet } from '../../bench/common.ts';

const SAMPLE: [set: string, n: number, plain?: boolean][] = [
  ['timit-dev', 12],
  ['emu-ae', 3],
  ['ar-synthetic', 4],
  ['ar-synthetic', 3, true],
  ['ar-voxangeles-aeb', 6],
  ['fr-librivox-mfa', 3],
];

test('with the old settings, 98 % of word boundaries lie within 10 ms of the soundswallower decoder', async () => {
  const total: ParityCount = { boundaries: 0, within10: 0, within20: 0, unmatched: 0, sumAbsMs: 0 };
  for (const [set, n, plain] of SAMPLE) {
    // every fourth utterance, so the sample spreads over the set's speakers
    const utts = loadSet(set)
      .filter((_, i) => i % 4 === 0)
      .slice(0, n);
    for (const u of utts) {
      const r = await alignBoth(u, plain && u.text_plain ? u.text_plain : u.text, 'standard', true);
      compareBoundaries(r.own, r.ref, total);
    }
  }
  const share = total.within10 / total.boundaries;
  assert.ok(total.boundaries > 300, `${total.boundaries} boundaries compared`);
  assert.ok(share >= 0.98, `${(share * 100).toFixed(1)} % of ${total.boundaries} boundaries within 10 ms`);
});
