import { useCallback, useReducer } from 'react';
import type { AlignmentResult } from '@tazamun/contracts/alignment-result';

interface History {
  past: AlignmentResult[];
  present: AlignmentResult;
  future: AlignmentResult[];
  /** the state before a drag began: the whole drag is one undo step */
  dragFrom: AlignmentResult | null;
}

type Action =
  | { type: 'apply'; next: AlignmentResult }
  | { type: 'preview'; next: AlignmentResult }
  | { type: 'commit' }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'reset'; next: AlignmentResult };

const LIMIT = 200;

function reduce(h: History, a: Action): History {
  switch (a.type) {
    case 'apply':
      if (a.next === h.present) return h;
      return { past: [...h.past, h.present].slice(-LIMIT), present: a.next, future: [], dragFrom: null };
    case 'preview':
      return { ...h, present: a.next, dragFrom: h.dragFrom ?? h.present };
    case 'commit':
      if (!h.dragFrom || h.dragFrom === h.present) return { ...h, dragFrom: null };
      return { past: [...h.past, h.dragFrom].slice(-LIMIT), present: h.present, future: [], dragFrom: null };
    case 'undo': {
      const prev = h.past.at(-1);
      if (!prev) return h;
      return { past: h.past.slice(0, -1), present: prev, future: [h.present, ...h.future], dragFrom: null };
    }
    case 'reset':
      return { past: [], present: a.next, future: [], dragFrom: null };
    case 'redo': {
      const next = h.future[0];
      if (!next) return h;
      return { past: [...h.past, h.present], present: next, future: h.future.slice(1), dragFrom: null };
    }
  }
}

/** The draft under edit with undo and redo; a drag previews freely and counts as one step. */
export function useEditHistory(initial: AlignmentResult) {
  const [h, dispatch] = useReducer(reduce, { past: [], present: initial, future: [], dragFrom: null });
  return {
    draft: h.present,
    canUndo: h.past.length > 0,
    canRedo: h.future.length > 0,
    apply: useCallback((next: AlignmentResult | null) => next && dispatch({ type: 'apply', next }), []),
    preview: useCallback((next: AlignmentResult) => dispatch({ type: 'preview', next }), []),
    commit: useCallback(() => dispatch({ type: 'commit' }), []),
    undo: useCallback(() => dispatch({ type: 'undo' }), []),
    redo: useCallback(() => dispatch({ type: 'redo' }), []),
    /** a new revision to edit from: an empty history */
    reset: useCallback((next: AlignmentResult) => dispatch({ type: 'reset', next }), []),
  };
}
