import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useUiStore } from '../../stores/ui-store.ts';
import { Button } from './button.tsx';

function ConfirmBody({
  body,
  action,
  onConfirm,
}: {
  body: ReactNode;
  action: string;
  onConfirm: () => unknown;
}) {
  const { t } = useTranslation();
  const close = useUiStore((s) => s.closeModal);
  const [busy, setBusy] = useState(false);
  return (
    <div>
      <div className="text-sm text-muted">{body}</div>
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="secondary" onClick={close}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="danger"
          loading={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await onConfirm();
            } finally {
              setBusy(false);
              close();
            }
          }}
        >
          {action}
        </Button>
      </div>
    </div>
  );
}

/** Asks for confirmation in the global modal before a destructive action. */
export function confirmAction(options: {
  title: string;
  body: ReactNode;
  action: string;
  onConfirm: () => unknown;
}): void {
  useUiStore.getState().openModal({
    title: options.title,
    size: 'sm',
    content: <ConfirmBody body={options.body} action={options.action} onConfirm={options.onConfirm} />,
  });
}
