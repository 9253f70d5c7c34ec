import { describe, expect, it } from 'vitest';
import type { AlignmentResult, WordTiming } from '@tazamun/contracts/alignment-result';
import {
  canonicalEdge,
  edgeRange,
  mergePhones,
  moveEdge,
  nudgeEdge,
  revisionBody,
  setPhoneLabel,
  setWordLabel,
  splitPhone,
  stretchWords,
  textBetween,
  wordsToCheck,
} from './edit-model.ts';

function word(
  index: number,
  text: string,
  start: number | null,
  end: number | null,
  phones: [string, number, number][] = [],
): WordTiming {
  return {
    index,
    word: text,
    normalized: text,
    start,
    end,
    duration: start === null || end === null ? null : end - start,
    confidence: start === null ? 0 : 0.9,
    status: start === null ? 'not_found' : 'aligned',
    phones: phones.map(([phone, s, e]) => ({ phone, model_phone: phone, start: s, end: e })),
    char_start: 0,
    char_end: text.length,
  };
}

// "a b ∅ c": a and b share the boundary at 1.0, a gap before c, and one word not found.
const result = {
  audio: { duration: 3 },
  words: [
    word(0, 'a', 0.5, 1, [
      ['A', 0.5, 0.8],
      ['B', 0.8, 1],
    ]),
    word(1, 'b', 1, 1.5, [['C', 1, 1.5]]),
    word(2, 'x', null, null),
    word(3, 'c', 2, 2.5, [['D', 2, 2.5]]),
  ],
} as unknown as AlignmentResult;

describe('moving boundaries', () => {
  it('a shared word boundary moves both words and their edge phones', () => {
    const r = moveEdge(result, { word: 0, phone: null, edge: 'end' }, 1.1);
    expect([
      r.words[0]!.end,
      r.words[0]!.phones[1]!.end,
      r.words[1]!.start,
      r.words[1]!.phones[0]!.start,
    ]).toEqual([1.1, 1.1, 1.1, 1.1]);
    expect(r.words[0]!.duration).toBe(0.6);
    expect(result.words[0]!.end).toBe(1);
  });

  it('neighbours stay in order: the boundary stops 5 ms before the next one', () => {
    const r = moveEdge(result, { word: 0, phone: null, edge: 'end' }, 2.9);
    expect(r.words[1]!.start).toBe(1.495);
    const back = moveEdge(result, { word: 0, phone: null, edge: 'end' }, 0.1);
    expect(back.words[0]!.end).toBe(0.805);
  });

  it('a word edge next to a gap stops at the neighbour', () => {
    const r = moveEdge(result, { word: 3, phone: null, edge: 'start' }, 1.2);
    expect(r.words[3]!.start).toBe(1.5);
    expect(r.words[3]!.phones[0]!.start).toBe(1.5);
    expect(r.words[1]!.end).toBe(1.5);
  });

  it('an inner phone boundary stays inside its word and moves only its phones', () => {
    const r = nudgeEdge(result, { word: 0, phone: 0, edge: 'end' }, 0.005);
    expect([r.words[0]!.phones[0]!.end, r.words[0]!.phones[1]!.start, r.words[0]!.end]).toEqual([
      0.805, 0.805, 1,
    ]);
    const far = moveEdge(result, { word: 0, phone: 0, edge: 'end' }, 5);
    expect(far.words[0]!.phones[0]!.end).toBe(0.995);
  });
});

describe('labels, splits and merges, and the save body', () => {
  it('turns edits into the revision body the server takes', () => {
    let d = moveEdge(result, { word: 0, phone: null, edge: 'end' }, 1.05);
    d = setWordLabel(d, 3, 'see');
    d = splitPhone(d, 3, 0, 2.2)!;
    d = setPhoneLabel(d, 0, 0, 'ʔa');
    expect(revisionBody(result, d, 4)).toEqual({
      base_revision: 4,
      words: [
        { index: 0, end: 1.05 },
        { index: 1, start: 1.05 },
        { index: 3, word: 'see' },
      ],
      phones: [
        { word_index: 0, index: 0, phone: 'ʔa' },
        { word_index: 0, index: 1, end: 1.05 },
        { word_index: 1, index: 0, start: 1.05 },
      ],
      word_phones: [
        {
          word_index: 3,
          phones: [
            { phone: 'D', model_phone: 'D', start: 2, end: 2.2 },
            { phone: 'D', model_phone: 'D', start: 2.2, end: 2.5 },
          ],
        },
      ],
    });
    expect(revisionBody(result, result, 4)).toBeNull();
  });

  it('merges two phones into one and refuses a split outside the phone', () => {
    const m = mergePhones(result, 0, 0)!;
    expect(m.words[0]!.phones).toEqual([{ phone: 'AB', model_phone: 'A B', start: 0.5, end: 1 }]);
    expect(mergePhones(result, 1, 0)).toBeNull();
    expect(splitPhone(result, 0, 0, 0.9)).toBeNull();
  });

  it('lists the words to check first by the account’s threshold and the verdict’s poorly fitting words', () => {
    const r = structuredClone(result);
    r.words[1]!.confidence = 0.6;
    // medium (0.5): only the word not found; high (0.7): "b" too; a poor fit named by the verdict as well
    expect(wordsToCheck(r, 0.5)).toEqual([2]);
    expect(wordsToCheck(r, 0.7)).toEqual([1, 2]);
    expect(wordsToCheck(r, 0.5, new Set([3]))).toEqual([2, 3]);
  });
});

describe('boundaries by name and range', () => {
  it('a start shared with the end before is that end; the range stops at the neighbours', () => {
    expect(canonicalEdge(result, { word: 1, phone: null, edge: 'start' })).toEqual({
      word: 0,
      phone: null,
      edge: 'end',
    });
    // "c" starts after a gap: its start is its own
    expect(canonicalEdge(result, { word: 3, phone: null, edge: 'start' })).toEqual({
      word: 3,
      phone: null,
      edge: 'start',
    });
    expect(canonicalEdge(result, { word: 0, phone: 1, edge: 'start' })).toEqual({
      word: 0,
      phone: 0,
      edge: 'end',
    });
    expect(canonicalEdge(result, { word: 1, phone: 0, edge: 'start' })).toEqual({
      word: 0,
      phone: 1,
      edge: 'end',
    });
    const r = edgeRange(result, { word: 0, phone: null, edge: 'end' })!;
    // between the end of "a"'s first phone and the end of "b" (each keeps 5 ms)
    expect([r.lo, r.hi]).toEqual([0.805, 1.495]);
  });
});

describe('stretches to re-align', () => {
  it('widen over the words they cut, but stop at a word corrected by hand that they only cut', () => {
    const st = stretchWords(result, 0.9, 1.2);
    // the word not found after "b" goes with it: it lies between "b" and the next timed word
    expect([st.from, st.to, st.start, st.end, st.kept]).toEqual([0, 3, 0.5, 1.5, []]);
    expect(textBetween(result, 0.9, 1.2)).toBe('a b x');
    const corrected = structuredClone(result);
    corrected.words[0]!.hand_corrected = true;
    const kept = stretchWords(corrected, 0.9, 1.2);
    expect([kept.from, kept.to, kept.start, kept.end, kept.kept]).toEqual([1, 3, 1, 1.5, [0]]);
    expect(textBetween(corrected, 0.9, 1.2)).toBe('b x');
    // a corrected word the stretch covers whole is re-aligned with it
    expect(textBetween(corrected, 0.4, 1.2)).toBe('a b x');
    expect(textBetween(result, 1.2, 2.2)).toBe('b x c');
  });
});
