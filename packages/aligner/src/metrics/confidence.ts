// Per-word confidence in [0, 1] from the spans of the word's units.
import type { UnitSpan } from '../acoustic/backend.ts';

export function wordConfidence(spans: UnitSpan[]): number {
  if (spans.length === 0) return 0;
  const c = spans.reduce((a, s) => a + s.confidence, 0) / spans.length;
  return Math.round(Math.max(0, Math.min(1, c)) * 1000) / 1000;
}
