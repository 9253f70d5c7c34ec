import { describe, expect, it } from 'vitest';
import { editorAction } from './key-map.ts';
import type { KeyLike } from './key-map.ts';

const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({
  key: k,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

describe('the workspace keyboard', () => {
  it('never takes Tab: the tiers are one stop and Tab leaves them', () => {
    for (const place of ['cell', 'edge', 'other'] as const) {
      expect(editorAction(key('Tab'), place)).toBeNull();
      expect(editorAction(key('Tab', { shiftKey: true }), place)).toBeNull();
    }
  });

  it('in a tier the arrows move and switch tiers; on a boundary they nudge it', () => {
    expect(editorAction(key('ArrowRight'), 'cell')).toEqual({ type: 'move', step: 1, extend: false });
    expect(editorAction(key('ArrowLeft', { shiftKey: true }), 'cell')).toEqual({
      type: 'move',
      step: -1,
      extend: true,
    });
    expect(editorAction(key('ArrowDown'), 'cell')).toEqual({ type: 'switchTier', step: 1 });
    expect(editorAction(key(']'), 'cell')).toEqual({ type: 'edge', side: 'end' });
    expect(editorAction(key('ArrowRight'), 'edge')).toEqual({ type: 'nudge', delta: 0.005 });
    expect(editorAction(key('ArrowLeft', { shiftKey: true }), 'edge')).toEqual({
      type: 'nudge',
      delta: -0.001,
    });
    expect(editorAction(key('Escape'), 'edge')).toEqual({ type: 'leaveEdge' });
  });

  it('on buttons and fields only the Ctrl shortcuts act (Space still presses a button)', () => {
    expect(editorAction(key(' '), 'other')).toBeNull();
    expect(editorAction(key('n'), 'other')).toBeNull();
    expect(editorAction(key('s', { ctrlKey: true }), 'other')).toEqual({ type: 'save' });
    expect(editorAction(key('z', { ctrlKey: true, shiftKey: true }), 'other')).toEqual({ type: 'redo' });
    expect(editorAction(key(' '), 'cell')).toEqual({ type: 'playPause' });
  });
});
