// Toasts as the user meets them: one message per toast, in the polite live region, an alert for errors
// (announced at once) and a status otherwise.
import { expect } from 'vitest';
import { screen } from '@testing-library/react';
import type { ToastType } from '../stores/ui-store.ts';

/** Waits for a toast of this type whose whole text is the message, and returns it. */
export async function expectToast(type: ToastType, message: string): Promise<HTMLElement> {
  const text = await screen.findByText(message);
  const toast = text.closest<HTMLElement>('[data-toast-type]');
  expect(toast, `"${message}" is not in a toast`).not.toBeNull();
  expect(toast!.getAttribute('data-toast-type')).toBe(type);
  expect(toast!.getAttribute('role')).toBe(type === 'error' ? 'alert' : 'status');
  expect(toast!.textContent).toBe(message);
  expect(toast!.parentElement?.getAttribute('aria-live')).toBe('polite');
  return toast!;
}
