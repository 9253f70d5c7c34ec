import { describe, expect, it } from 'vitest';
import { formatClock, wordAt } from './time.ts';

describe('formatClock', () => {
  it('formats minutes, seconds and milliseconds', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(75.4)).toBe('1:15');
    expect(formatClock(75.4, true)).toBe('1:15.400');
    expect(formatClock(null)).toBe('–');
  });
});

describe('wordAt', () => {
  const words = [
    { start: 0.1, end: 0.4 },
    { start: 0.4, end: 0.9 },
    { start: null, end: null },
    { start: 1.2, end: 1.5 },
    { start: 1.6, end: 2.0 },
  ];
  it('finds the word sounding at a time, skipping words not found in the audio', () => {
    expect(wordAt(words, 0.05)).toBe(-1);
    expect(wordAt(words, 0.1)).toBe(0);
    expect(wordAt(words, 0.5)).toBe(1);
    expect(wordAt(words, 1.0)).toBe(-1);
    expect(wordAt(words, 1.3)).toBe(3);
    expect(wordAt(words, 1.55)).toBe(-1);
    expect(wordAt(words, 1.99)).toBe(4);
    expect(wordAt(words, 2.5)).toBe(-1);
  });
  it('agrees with a linear scan on every 10 ms of a longer word list', () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      i % 7 === 3 ? { start: null, end: null } : { start: i * 0.3, end: i * 0.3 + 0.25 },
    );
    for (let t = 0; t < 61; t += 0.01) {
      const linear = many.findIndex((w) => w.start !== null && w.end !== null && t >= w.start && t < w.end);
      expect(wordAt(many, t), `t=${t}`).toBe(linear);
    }
  });
});
