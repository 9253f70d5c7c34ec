import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from 'react-i18next';
import { useUiStore } from '../../stores/ui-store.ts';
import type { ModalSize } from '../../stores/ui-store.ts';
import { CloseIcon } from './icons.tsx';

const SIZES: Record<ModalSize, string> = {
  sm: 'max-w-sm',
  md: 'max-w-lg',
  lg: 'max-w-2xl',
  xl: 'max-w-4xl',
};

/** The one global modal. Radix gives Escape-to-close, focus trapping and body scroll locking. */
export function GlobalModal() {
  const { t } = useTranslation();
  const modal = useUiStore((s) => s.modal);
  const close = useUiStore((s) => s.closeModal);
  return (
    <Dialog.Root open={modal !== null} onOpenChange={(open) => !open && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-[2px]" />
        {modal && (
          <Dialog.Content
            className={`fixed inset-x-0 top-1/2 z-50 mx-auto max-h-[85dvh] w-[calc(100vw-2rem)] -translate-y-1/2 overflow-y-auto rounded-2xl border border-border bg-surface p-6 shadow-2xl ${SIZES[modal.size]}`}
            {...(modal.description ? {} : { 'aria-describedby': undefined })}
          >
            <div className="mb-4 flex items-start justify-between gap-4">
              <Dialog.Title className="text-lg font-semibold text-fg">{modal.title}</Dialog.Title>
              <Dialog.Close className="text-muted hover:text-fg" aria-label={t('common.close')}>
                <CloseIcon />
              </Dialog.Close>
            </div>
            {modal.description && (
              <Dialog.Description className="mb-4 text-sm text-muted">{modal.description}</Dialog.Description>
            )}
            {modal.content}
          </Dialog.Content>
        )}
      </Dialog.Portal>
    </Dialog.Root>
  );
}
