// The account's saved interface language and theme follow the user to a browser that has no choice
// of its own yet (a new device, a cleared browser). A choice already stored here wins: it was made
// on this device, later than anything the server could say at sign-in.
import { useEffect, useRef } from 'react';
import type { User } from '@tazamun/contracts/auth';
import { changeLanguage, hasStoredLanguage } from '../lib/i18n.ts';
import { useUiStore } from '../stores/ui-store.ts';

/** Applies (and stores, so it becomes this browser's choice) what is not chosen here yet. */
export function adoptAccountPreferences(user: User): void {
  const { language, theme } = user.preferences;
  if (!hasStoredLanguage()) void changeLanguage(language);
  const ui = useUiStore.getState();
  if (!ui.themeStored) ui.setTheme(theme);
}

/** Once per signed-in user: at sign-in, and when a stored session's profile first loads. The
 *  animations and compact preferences apply on every change, as attributes on <html> that styles.css
 *  reads (motion off is the same rule as the system's prefers-reduced-motion). */
export function useAccountPreferences(user: User | undefined): void {
  const adoptedFor = useRef<string | null>(null);
  const animations = user?.preferences.animations ?? true;
  const compact = user?.preferences.compact_mode ?? false;
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.motion = animations ? 'full' : 'reduce';
    root.dataset.density = compact ? 'compact' : 'comfortable';
  }, [animations, compact]);
  useEffect(() => {
    if (!user) {
      adoptedFor.current = null;
      return;
    }
    if (adoptedFor.current === user.id) return;
    adoptedFor.current = user.id;
    adoptAccountPreferences(user);
  }, [user]);
}
