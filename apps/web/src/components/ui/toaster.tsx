import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATION_POPUP_MS, useUiStore } from '../../stores/ui-store.ts';
import type { Toast, ToastType } from '../../stores/ui-store.ts';
import { CloseIcon } from './icons.tsx';

const TONE: Record<ToastType, string> = {
  info: 'border-s-accent',
  success: 'border-s-success',
  warning: 'border-s-warning',
  error: 'border-s-danger',
};

function ToastItem({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const dismiss = useUiStore((s) => s.dismissToast);
  useEffect(() => {
    const timer = setTimeout(() => dismiss(toast.id), toast.duration);
    return () => clearTimeout(timer);
  }, [toast.id, toast.duration, dismiss]);
  return (
    <div
      role={toast.type === 'error' ? 'alert' : 'status'}
      data-toast-type={toast.type}
      className={`pointer-events-auto flex w-full items-start gap-3 rounded-lg border border-border border-s-4 bg-surface px-4 py-3 text-sm text-fg shadow-lg ${TONE[toast.type]}`}
    >
      <p className="flex-1">{toast.message}</p>
      <button
        type="button"
        onClick={() => dismiss(toast.id)}
        className="text-muted hover:text-fg"
        aria-label={t('common.close')}
      >
        <CloseIcon size={16} />
      </button>
    </div>
  );
}

/** Transient messages, bottom centre, each hidden after its type's duration. */
export function Toaster() {
  const toasts = useUiStore((s) => s.toasts);
  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 bottom-4 z-[60] mx-auto flex w-full max-w-md flex-col gap-2 px-4"
    >
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}

function PopupItem({ id }: { id: number }) {
  const { t } = useTranslation();
  const item = useUiStore((s) => s.notifications.find((n) => n.id === id));
  const hide = useUiStore((s) => s.hidePopup);
  useEffect(() => {
    const timer = setTimeout(() => hide(id), NOTIFICATION_POPUP_MS);
    return () => clearTimeout(timer);
  }, [id, hide]);
  if (!item) return null;
  return (
    <div
      role="status"
      className={`pointer-events-auto rounded-lg border border-border border-s-4 bg-surface px-4 py-3 text-sm shadow-lg ${TONE[item.type]}`}
    >
      <div className="flex items-start gap-3">
        <div className="flex-1">
          <p className="font-medium text-fg">{item.title}</p>
          {item.message && <p className="mt-0.5 text-muted">{item.message}</p>}
        </div>
        <button
          type="button"
          onClick={() => hide(id)}
          className="text-muted hover:text-fg"
          aria-label={t('common.close')}
        >
          <CloseIcon size={16} />
        </button>
      </div>
    </div>
  );
}

/** Notification pop-ups: top corner on the reading end (top right in left-to-right layouts), 5 s each. */
export function NotificationPopups() {
  const ids = useUiStore((s) => s.popupIds);
  const panelOpen = useUiStore((s) => s.notificationsOpen);
  if (panelOpen) return null;
  return (
    <div className="pointer-events-none fixed end-4 top-20 z-[60] flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2">
      {ids.map((id) => (
        <PopupItem key={id} id={id} />
      ))}
    </div>
  );
}
