// Sentence-like segments: a segment ends after sentence punctuation or before a long pause.
import type { Segment, WordTiming } from '@tazamun/contracts/alignment-result';

const END = /[.!?؟。…؛;:]["'»”)\]]*$/u;
const PAUSE = 0.7;

export function buildSegments(text: string, words: WordTiming[]): Segment[] {
  const segs: Segment[] = [];
  let first = 0;
  const close = (last: number) => {
    const ws = words.slice(first, last + 1);
    const timed = ws.filter((w) => w.start !== null);
    segs.push({
      index: segs.length,
      text: text.slice(ws[0]!.char_start, ws[ws.length - 1]!.char_end),
      start: timed.length ? timed[0]!.start : null,
      end: timed.length ? timed[timed.length - 1]!.end : null,
      word_start: first,
      word_end: last + 1,
      confidence: timed.length
        ? Math.round((timed.reduce((a, w) => a + w.confidence, 0) / ws.length) * 1000) / 1000
        : 0,
    });
    first = last + 1;
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    const gap = next && next.start !== null && w.end !== null ? next.start - w.end : 0;
    if (i === words.length - 1 || END.test(w.word) || gap >= PAUSE) close(i);
  }
  return segs;
}
