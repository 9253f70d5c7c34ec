// The one wavesurfer factory: each look's colours follow the theme's CSS variables, and an instance
// made for a look carries that look's options under the caller's.
import { afterEach, describe, expect, it } from 'vitest';
import { PLAYBACK_RATES, createWaveSurfer, waveColours } from './wavesurfer.ts';

const root = document.documentElement.style;

afterEach(() => {
  for (const v of ['--border', '--accent', '--fg', '--muted', '--danger']) root.removeProperty(v);
  document.body.replaceChildren();
});

describe('wavesurfer factory', () => {
  it('reads each look’s colours from the theme, again after the theme changes', () => {
    root.setProperty('--border', '#101010');
    root.setProperty('--accent', '#202020');
    root.setProperty('--fg', '#303030');
    root.setProperty('--muted', '#404040');
    root.setProperty('--danger', '#505050');
    expect(waveColours('player')).toEqual({
      waveColor: '#101010',
      progressColor: '#202020',
      cursorColor: '#303030',
    });
    expect(waveColours('workspace')).toEqual({
      waveColor: '#404040',
      progressColor: '#404040',
      cursorColor: '#505050',
    });
    root.setProperty('--accent', '#abcdef');
    expect(waveColours('player').progressColor).toBe('#abcdef');
    // a variable the stylesheet does not define yet: a visible grey rather than nothing
    root.removeProperty('--fg');
    expect(waveColours('player').cursorColor).toBe('#888');
  });

  it('makes an instance with its look’s options, the caller’s winning', () => {
    root.setProperty('--muted', '#404040');
    const container = document.createElement('div');
    document.body.append(container);
    const ws = createWaveSurfer('workspace', { container, height: 80 });
    const o = ws.options;
    expect(o.sampleRate).toBe(16000);
    expect(o.height).toBe(80);
    expect(o.normalize).toBe(true);
    expect(o.waveColor).toBe('#404040');
    ws.destroy();
    const player = createWaveSurfer('player', { container });
    expect(player.options.height).toBe(88);
    expect(player.options.barWidth).toBe(2);
    player.destroy();
  });

  it('offers the workspace a quarter speed the player does not', () => {
    expect(PLAYBACK_RATES.workspace.filter((r) => !PLAYBACK_RATES.player.includes(r))).toEqual([0.25]);
    expect(PLAYBACK_RATES.player).toContain(1);
  });
});
