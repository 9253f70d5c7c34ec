// Interface state only (theme, toasts, notifications, the global modal, the mobile menu). Server data
// lives in TanStack Query, never here.
import type { ReactNode } from 'react';
import { create } from 'zustand';
import { THEME_STORAGE_KEY, applyTheme, initialTheme, storedTheme, systemTheme } from '../lib/theme.ts';
import type { Theme } from '../lib/theme.ts';

export type ToastType = 'info' | 'success' | 'error' | 'warning';
export const TOAST_DURATIONS: Record<ToastType, number> = {
  info: 3000,
  success: 3000,
  error: 5000,
  warning: 4000,
};
export const NOTIFICATION_POPUP_MS = 5000;
export const NOTIFICATION_CAP = 50;

export interface Toast {
  id: number;
  type: ToastType;
  message: string;
  duration: number;
}

export interface AppNotification {
  id: number;
  type: ToastType;
  title: string;
  message?: string;
  /** what the notification is about (a job's id): a newer pop-up on the same subject replaces the one
   * still showing, so one job's "queued" then "completed" take one place in the corner, not two */
  subject?: string;
  read: boolean;
  timestamp: number;
}

export type ModalSize = 'sm' | 'md' | 'lg' | 'xl';
export interface ModalState {
  title: string;
  description?: string;
  content: ReactNode;
  size: ModalSize;
}

interface UiState {
  theme: Theme;
  themeStored: boolean;
  toasts: Toast[];
  notifications: AppNotification[];
  popupIds: number[];
  modal: ModalState | null;
  mobileMenuOpen: boolean;
  /** the notifications panel is open: pop-ups would cover it and say what it lists, so none shows */
  notificationsOpen: boolean;
  setNotificationsOpen: (open: boolean) => void;
  setTheme: (theme: Theme) => void;
  toggleTheme: () => void;
  followSystemTheme: () => void;
  showToast: (type: ToastType, message: string, duration?: number) => number;
  dismissToast: (id: number) => void;
  notify: (notification: { type: ToastType; title: string; message?: string; subject?: string }) => number;
  hidePopup: (id: number) => void;
  markRead: (id: number) => void;
  markAllRead: () => void;
  removeNotification: (id: number) => void;
  clearNotifications: () => void;
  openModal: (modal: Omit<ModalState, 'size'> & { size?: ModalSize }) => void;
  closeModal: () => void;
  setMobileMenuOpen: (open: boolean) => void;
}

let nextId = 1;

export const useUiStore = create<UiState>((set, get) => ({
  theme: initialTheme(),
  themeStored: storedTheme() !== null,
  toasts: [],
  notifications: [],
  popupIds: [],
  modal: null,
  mobileMenuOpen: false,
  notificationsOpen: false,
  setNotificationsOpen: (open) =>
    set(open ? { notificationsOpen: true, popupIds: [] } : { notificationsOpen: false }),

  setTheme: (theme) => {
    try {
      localStorage.setItem(THEME_STORAGE_KEY, theme);
    } catch {
      // Storage blocked: the theme still applies for this visit.
    }
    applyTheme(theme, true);
    set({ theme, themeStored: true });
  },
  toggleTheme: () => get().setTheme(get().theme === 'dark' ? 'light' : 'dark'),
  followSystemTheme: () => {
    try {
      localStorage.removeItem(THEME_STORAGE_KEY);
    } catch {
      // Nothing stored to remove.
    }
    const theme = systemTheme();
    applyTheme(theme, true);
    set({ theme, themeStored: false });
  },

  showToast: (type, message, duration = TOAST_DURATIONS[type]) => {
    const id = nextId++;
    set((s) => ({ toasts: [...s.toasts, { id, type, message, duration }] }));
    return id;
  },
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),

  notify: ({ type, title, message, subject }) => {
    const id = nextId++;
    const item: AppNotification = { id, type, title, message, subject, read: false, timestamp: Date.now() };
    set((s) => {
      const superseded = new Set(
        subject === undefined ? [] : s.notifications.filter((n) => n.subject === subject).map((n) => n.id),
      );
      return {
        notifications: [item, ...s.notifications].slice(0, NOTIFICATION_CAP),
        popupIds: s.notificationsOpen ? s.popupIds : [...s.popupIds.filter((p) => !superseded.has(p)), id],
      };
    });
    return id;
  },
  hidePopup: (id) => set((s) => ({ popupIds: s.popupIds.filter((p) => p !== id) })),
  markRead: (id) =>
    set((s) => ({ notifications: s.notifications.map((n) => (n.id === id ? { ...n, read: true } : n)) })),
  markAllRead: () => set((s) => ({ notifications: s.notifications.map((n) => ({ ...n, read: true })) })),
  removeNotification: (id) =>
    set((s) => ({
      notifications: s.notifications.filter((n) => n.id !== id),
      popupIds: s.popupIds.filter((p) => p !== id),
    })),
  clearNotifications: () => set({ notifications: [], popupIds: [] }),

  // One slot: opening a modal replaces (closes) whichever was open.
  openModal: (modal) => set({ modal: { size: 'md', ...modal }, mobileMenuOpen: false }),
  closeModal: () => set({ modal: null }),
  setMobileMenuOpen: (open) => set({ mobileMenuOpen: open, ...(open ? { modal: null } : {}) }),
}));

export const toast = {
  info: (message: string) => useUiStore.getState().showToast('info', message),
  success: (message: string) => useUiStore.getState().showToast('success', message),
  error: (message: string) => useUiStore.getState().showToast('error', message),
  warning: (message: string) => useUiStore.getState().showToast('warning', message),
};
