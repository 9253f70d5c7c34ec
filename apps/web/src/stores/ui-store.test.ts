import { describe, expect, it } from 'vitest';
import { NOTIFICATION_CAP, TOAST_DURATIONS, toast, useUiStore } from './ui-store.ts';

describe('ui store', () => {
  it('gives each toast type its spec duration', () => {
    expect(TOAST_DURATIONS).toEqual({ info: 3000, success: 3000, error: 5000, warning: 4000 });
    toast.warning('w');
    toast.error('e');
    expect(useUiStore.getState().toasts.map((t) => t.duration)).toEqual([4000, 5000]);
  });

  it('keeps notifications newest first, capped at 50, with read/remove/clear', () => {
    const { notify } = useUiStore.getState();
    for (let i = 0; i < NOTIFICATION_CAP + 5; i++) notify({ type: 'info', title: `n${i}` });
    const list = useUiStore.getState().notifications;
    expect(list).toHaveLength(50);
    expect(list[0]?.title).toBe('n54');
    const first = list[0]!.id;
    useUiStore.getState().markRead(first);
    expect(useUiStore.getState().notifications[0]?.read).toBe(true);
    useUiStore.getState().removeNotification(first);
    expect(useUiStore.getState().notifications[0]?.title).toBe('n53');
    useUiStore.getState().clearNotifications();
    expect(useUiStore.getState().notifications).toEqual([]);
  });

  it("shows one pop-up per subject: a job's completion replaces its queued pop-up, the list keeps both", () => {
    const s = useUiStore.getState();
    s.clearNotifications();
    const queued = s.notify({ type: 'info', title: 'queued', subject: 'job-1' });
    const other = s.notify({ type: 'info', title: 'other', subject: 'job-2' });
    const plain = s.notify({ type: 'info', title: 'plain' });
    const done = s.notify({ type: 'success', title: 'completed', subject: 'job-1' });
    expect(useUiStore.getState().popupIds).toEqual([other, plain, done]);
    expect(useUiStore.getState().notifications.map((n) => n.id)).toEqual([done, plain, other, queued]);
    s.notify({ type: 'info', title: 'plain again' });
    expect(useUiStore.getState().popupIds).toHaveLength(4);
    s.clearNotifications();
  });

  it('has one modal slot: opening a modal replaces the open one, opening the menu closes it', () => {
    const s = useUiStore.getState();
    s.openModal({ title: 'A', content: 'a' });
    s.openModal({ title: 'B', content: 'b', size: 'xl' });
    expect(useUiStore.getState().modal).toMatchObject({ title: 'B', size: 'xl' });
    s.setMobileMenuOpen(true);
    expect(useUiStore.getState().modal).toBeNull();
  });

  it('persists the theme and paints the browser bar', () => {
    useUiStore.getState().setTheme('light');
    expect(localStorage.getItem('theme')).toBe('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    expect(document.querySelector('meta[name="theme-color"]')?.getAttribute('content')).toBe('#F6F7FB');
    useUiStore.getState().toggleTheme();
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(document.querySelector('meta[name="theme-color"]')?.getAttribute('content')).toBe('#0B0E14');
  });
});
