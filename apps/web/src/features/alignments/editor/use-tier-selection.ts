// Where the keyboard is in the tiers: the selected interval (a word or a phone), a range of words being
// extended with Shift, a boundary being nudged, and the element the keyboard should be on. The moves the
// key map names (next, previous, first, last, other tier, a boundary and back) are made here, on the
// draft as it is now.
import { useEffect, useRef, useState } from 'react';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';
import { canonicalEdge } from './edit-model.ts';
import type { EdgeRef } from './edit-model.ts';
import { selectionSpan } from './selection-panel.tsx';
import type { FocusRequest, FocusTarget, Selection } from './tier-layer.tsx';

/** Words with no time (not found in the audio) are passed over. */
export const timed = (w: { start: number | null; end: number | null } | undefined): boolean =>
  !!w && w.start !== null && w.end !== null;

export interface WordRange {
  anchor: number;
  from: number;
  to: number;
}

export function useTierSelection({
  draft,
  seek,
  onRange,
}: {
  draft: AlignmentResult;
  /** the cursor goes to the start of what is selected */
  seek: (seconds: number) => void;
  /** words [from, to] were selected together: they make a stretch */
  onRange: (from: number, to: number) => void;
}) {
  const [selection, setSelection] = useState<Selection>(null);
  const [range, setRange] = useState<WordRange | null>(null);
  const [edge, setEdge] = useState<EdgeRef | null>(null);
  const [focus, setFocus] = useState<FocusTarget | null>(null);
  const focusSeq = useRef(0);
  const draftRef = useRef(draft);

  useEffect(() => {
    draftRef.current = draft;
  }, [draft]);

  const focusOn = (target: FocusRequest) => {
    focusSeq.current += 1;
    setFocus({ ...target, seq: focusSeq.current });
  };

  /** Selects an interval, puts the cursor at its start and the keyboard on it. */
  const select = (s: Selection, keepRange = false) => {
    setSelection(s);
    setEdge(null);
    if (!keepRange) setRange(null);
    const span = selectionSpan(draftRef.current, s);
    if (span) seek(span.start);
    if (s?.tier === 'word') focusOn({ kind: 'cell', tier: 'word', word: s.word });
    else if (s) focusOn({ kind: 'cell', tier: 'phone', word: s.word, phone: s.phone });
  };

  const clear = () => {
    setSelection(null);
    setRange(null);
    setEdge(null);
  };

  const move = (step: 1 | -1, extend: boolean) => {
    const words = draft.words;
    if (!selection || selection.tier === 'word') {
      const from = extend && range ? (step > 0 ? range.to : range.from) : selection ? selection.word : -1;
      let i = from < 0 && step < 0 ? words.length : from;
      do i += step;
      while (i >= 0 && i < words.length && !timed(words[i]));
      if (i < 0 || i >= words.length) return;
      if (extend && selection) {
        const anchor = range?.anchor ?? selection.word;
        const next = { anchor, from: Math.min(anchor, i), to: Math.max(anchor, i) };
        setRange(next);
        setSelection({ tier: 'word', word: i });
        setEdge(null);
        focusOn({ kind: 'cell', tier: 'word', word: i });
        onRange(next.from, next.to);
        return;
      }
      select({ tier: 'word', word: i });
      return;
    }
    let { word, phone } = selection;
    phone += step;
    while (word >= 0 && word < words.length && (phone < 0 || phone >= words[word]!.phones.length)) {
      word += step;
      if (word < 0 || word >= words.length) return;
      phone = step > 0 ? 0 : words[word]!.phones.length - 1;
    }
    select({ tier: 'phone', word, phone });
  };

  const firstOrLast = (last: boolean) => {
    const words = draft.words;
    if (selection?.tier === 'phone') {
      const order = last ? [...words.keys()].reverse() : [...words.keys()];
      const w = order.find((i) => words[i]!.phones.length);
      if (w !== undefined) select({ tier: 'phone', word: w, phone: last ? words[w]!.phones.length - 1 : 0 });
      return;
    }
    const i = last ? words.findLastIndex(timed) : words.findIndex(timed);
    if (i >= 0) select({ tier: 'word', word: i });
  };

  const switchTier = (step: 1 | -1) => {
    if (!selection) return;
    if (step < 0 && selection.tier === 'phone') select({ tier: 'word', word: selection.word });
    else if (step > 0 && selection.tier === 'word' && draft.words[selection.word]?.phones.length)
      select({ tier: 'phone', word: selection.word, phone: 0 });
  };

  const focusEdge = (side: 'start' | 'end') => {
    // the boundaries of the selected interval (a boundary's own interval when one was dragged)
    const from = selection
      ? { word: selection.word, phone: selection.tier === 'phone' ? selection.phone : null }
      : null;
    if (!from || !timed(draft.words[from.word])) return;
    const ref = canonicalEdge(draft, { ...from, edge: side });
    setEdge(ref);
    focusOn({ kind: 'edge', ref });
  };

  const leaveEdge = () => {
    setEdge(null);
    if (selection) select(selection, true);
  };

  /** A boundary taken with the pointer: it and its interval become the selection. */
  const grabEdge = (r: EdgeRef) => {
    setEdge(canonicalEdge(draft, r));
    setSelection(
      r.phone === null ? { tier: 'word', word: r.word } : { tier: 'phone', word: r.word, phone: r.phone },
    );
  };

  return {
    selection,
    range,
    edge,
    focus,
    select,
    clear,
    clearRange: () => setRange(null),
    move,
    firstOrLast,
    switchTier,
    focusEdge,
    leaveEdge,
    grabEdge,
  };
}
