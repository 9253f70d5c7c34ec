import { describe, expect, it } from 'vitest';
import { isBelowThreshold } from './confidence-threshold.ts';

describe('confidence threshold', () => {
  it('marks aligned words under the chosen level, never words missing from the audio', () => {
    const word = (confidence: number, status = 'aligned') => ({ status, confidence });
    expect([0.29, 0.3, 0.49, 0.5, 0.69, 0.7].map((c) => isBelowThreshold(word(c), 'medium'))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(isBelowThreshold(word(0.29), 'low')).toBe(true);
    expect(isBelowThreshold(word(0.3), 'low')).toBe(false);
    expect(isBelowThreshold(word(0.69), 'high')).toBe(true);
    expect(isBelowThreshold(word(0, 'not_found'), 'high')).toBe(false);
  });
});
