// Dark (default) and light themes. A stored choice wins; while nothing is stored the system scheme
// is followed. The browser bar takes the theme's background colour.
export type Theme = 'dark' | 'light';

export const THEME_STORAGE_KEY = 'theme';
export const THEME_COLORS: Record<Theme, string> = { dark: '#0B0E14', light: '#F6F7FB' };
export const THEME_TRANSITION_MS = 300;

export function storedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return value === 'dark' || value === 'light' ? value : null;
  } catch {
    return null;
  }
}

export function systemTheme(): Theme {
  if (typeof window.matchMedia !== 'function') return 'dark';
  return window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
}

export function initialTheme(): Theme {
  return storedTheme() ?? systemTheme();
}

let transitionTimer: ReturnType<typeof setTimeout> | undefined;

export function applyTheme(theme: Theme, animate = false): void {
  const root = document.documentElement;
  if (animate) {
    root.classList.add('theme-transition');
    clearTimeout(transitionTimer);
    transitionTimer = setTimeout(() => root.classList.remove('theme-transition'), THEME_TRANSITION_MS);
  }
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  let meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'theme-color';
    document.head.append(meta);
  }
  meta.content = THEME_COLORS[theme];
}
