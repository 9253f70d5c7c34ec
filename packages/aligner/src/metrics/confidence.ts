// Per-word confidence in [0, 1]. Two pieces of evidence, both from the alignment itself:
// - the decoder's posterior-like word probability p (pocketsphinx), which sits in 0.85-1 for words the
//   search placed: it is rescaled so 0.8 -> 0 and 1 -> 1;
// - duration plausibility: a word whose phones average more than 200 ms each was stretched over audio
//   that is not its own (a skipped pause, other speech), which is the commonest gross misplacement.
// Measured on timit-dev: words off by more than 100 ms average a lower confidence than the rest (see
// docs/benchmarks.md for both means).
import type { UnitSpan } from '../acoustic/backend.ts';

export function wordConfidence(spans: UnitSpan[]): number {
  if (spans.length === 0) return 0;
  const p = spans.reduce((a, s) => a + s.confidence, 0) / spans.length;
  const scaled = Math.max(0, Math.min(1, (p - 0.8) / 0.2));
  const phones = spans.reduce((a, s) => a + Math.max(1, s.phones.length), 0);
  const dur = spans[spans.length - 1]!.end - spans[0]!.start;
  const perPhone = dur / phones;
  const plausibility = perPhone > 0.2 ? Math.exp(-(perPhone - 0.2) / 0.1) : 1;
  return Math.round(scaled * plausibility * 1000) / 1000;
}
