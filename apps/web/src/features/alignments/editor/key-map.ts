// The correction workspace's keyboard: which key does what, by where the focus is. The tiers are one
// composite widget (one tab stop): inside, the arrows move between intervals and tiers, [ and ] reach
// an interval's boundaries, and on a boundary the arrows nudge it; Tab always leaves, so every control
// after the tiers stays reachable. Time runs left to right in every interface language: → is later.
import { FINE_NUDGE, NUDGE } from './edit-model.ts';

export type EditorAction =
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'save' }
  | { type: 'playPause' }
  | { type: 'playSelection' }
  /** the next (1) or previous (-1) interval of the tier; `extend` grows a range of words */
  | { type: 'move'; step: 1 | -1; extend: boolean }
  | { type: 'first' }
  | { type: 'last' }
  /** up (-1) to the word tier, down (1) to the phone tier */
  | { type: 'switchTier'; step: 1 | -1 }
  /** focus the interval's start or end boundary */
  | { type: 'edge'; side: 'start' | 'end' }
  | { type: 'nudge'; delta: number }
  /** from a boundary back to its interval */
  | { type: 'leaveEdge' }
  | { type: 'editLabel' }
  | { type: 'split' }
  | { type: 'merge' }
  | { type: 'zoom'; factor: number }
  | { type: 'nextCheck' }
  | { type: 'help' }
  | { type: 'clear' };

/** Where the key was pressed: an interval of a tier, a boundary, or any other part of the workspace. */
export type KeyPlace = 'cell' | 'edge' | 'other';

export interface KeyLike {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

export const ZOOM_STEP = 1.6;

export function editorAction(e: KeyLike, place: KeyPlace): EditorAction | null {
  const key = e.key;
  if (e.ctrlKey || e.metaKey) {
    const k = key.toLowerCase();
    if (k === 'z') return e.shiftKey ? { type: 'redo' } : { type: 'undo' };
    if (k === 'y') return { type: 'redo' };
    if (k === 's') return { type: 'save' };
    return null;
  }
  // On a button, a field or a list the keys keep their own meaning (Space presses a button).
  if (place === 'other' || e.altKey) return null;
  switch (key) {
    case ' ':
      return { type: 'playPause' };
    case 'p':
    case 'P':
      return { type: 'playSelection' };
    case '[':
      return { type: 'edge', side: 'start' };
    case ']':
      return { type: 'edge', side: 'end' };
    case '+':
    case '=':
      return { type: 'zoom', factor: ZOOM_STEP };
    case '-':
      return { type: 'zoom', factor: 1 / ZOOM_STEP };
    case '?':
      return { type: 'help' };
  }
  if (place === 'edge') {
    if (key === 'ArrowLeft' || key === 'ArrowRight') {
      const size = e.shiftKey ? FINE_NUDGE : NUDGE;
      return { type: 'nudge', delta: key === 'ArrowLeft' ? -size : size };
    }
    if (key === 'Escape' || key === 'Enter' || key === 'ArrowUp' || key === 'ArrowDown')
      return { type: 'leaveEdge' };
    return null;
  }
  switch (key) {
    case 'ArrowRight':
      return { type: 'move', step: 1, extend: e.shiftKey };
    case 'ArrowLeft':
      return { type: 'move', step: -1, extend: e.shiftKey };
    case 'Home':
      return { type: 'first' };
    case 'End':
      return { type: 'last' };
    case 'ArrowUp':
      return { type: 'switchTier', step: -1 };
    case 'ArrowDown':
      return { type: 'switchTier', step: 1 };
    case 'Enter':
    case 'F2':
      return { type: 'editLabel' };
    case 's':
    case 'S':
      return { type: 'split' };
    case 'm':
    case 'M':
      return { type: 'merge' };
    case 'n':
    case 'N':
      return { type: 'nextCheck' };
    case 'Escape':
      return { type: 'clear' };
  }
  return null;
}

/** The shortcut list shown by "?" (key names are the same in every language). */
export const SHORTCUTS = [
  ['Tab / ⇧ Tab', 'tab'],
  ['← →', 'move'],
  ['⇧ ← →', 'extend'],
  ['↑ ↓', 'tier'],
  ['Home End', 'ends'],
  ['[ ]', 'edges'],
  ['← → (⇧)', 'nudge'],
  ['Esc', 'leave'],
  ['Space', 'space'],
  ['P', 'play'],
  ['Enter', 'edit'],
  ['S', 'split'],
  ['M', 'merge'],
  ['Ctrl Z / Ctrl ⇧ Z', 'undo'],
  ['Ctrl S', 'save'],
  ['+ −', 'zoom'],
  ['N', 'next'],
  ['?', 'help'],
] as const;
