import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { useUiStore } from '../stores/ui-store.ts';

// Waiting is for readiness, not speed: a busy machine must not fail a test.
configure({ asyncUtilTimeout: 20_000 });

// jsdom has no layout engine: scrolling is a no-op here, and matchMedia is absent.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
Element.prototype.scrollIntoView = vi.fn();
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  useUiStore.setState({ toasts: [], notifications: [], popupIds: [], modal: null, mobileMenuOpen: false });
});
