import { describe, expect, it } from 'vitest';
import { estimateSeconds } from './processing-estimate.tsx';

describe('processing estimate', () => {
  it('divides the audio length by the median measured speed', () => {
    // 25 s of audio at 3.1× real time (the median of three runs) takes about 8 s.
    expect(estimateSeconds(25, [2.5, 3.1, 4])).toBe(9);
    expect(estimateSeconds(120, [2, 4])).toBe(40);
  });
  it('says nothing without a measured speed or a duration, and never less than 5 s', () => {
    expect(estimateSeconds(25, [])).toBeNull();
    expect(estimateSeconds(25, [null, 0])).toBeNull();
    expect(estimateSeconds(null, [3])).toBeNull();
    expect(estimateSeconds(2, [10])).toBe(5);
  });
});
