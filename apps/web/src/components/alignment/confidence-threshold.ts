// The account's confidence threshold (low, medium, high) as a probability: a word whose calibrated
// confidence (the chance its edges are within 50 ms of a person's) is below it is marked for checking.
import type { Preferences } from '@tazamun/contracts/auth';

export const CONFIDENCE_THRESHOLDS: Record<Preferences['confidence_threshold'], number> = {
  low: 0.3,
  medium: 0.5,
  high: 0.7,
};

export function isBelowThreshold(
  word: { status: string; confidence: number },
  level: Preferences['confidence_threshold'],
): boolean {
  return word.status !== 'not_found' && word.confidence < CONFIDENCE_THRESHOLDS[level];
}
