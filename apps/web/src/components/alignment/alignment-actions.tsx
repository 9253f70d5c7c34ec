// Rename, retry (failed or cancelled only) and delete one alignment: the same three actions on the
// results page and in the lists, so they behave the same everywhere.
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AlignmentSummary } from '@tazamun/contracts/alignments';
import { useDeleteAlignment, useRenameAlignment, useRetryAlignment } from '../../lib/api/alignments-api.ts';
import { toast, useUiStore } from '../../stores/ui-store.ts';
import { Button } from '../ui/button.tsx';
import { confirmAction } from '../ui/confirm.tsx';
import { InputField } from '../ui/field.tsx';

type Target = Pick<AlignmentSummary, 'id' | 'title' | 'status'>;

function RenameForm({ target }: { target: Target }) {
  const { t } = useTranslation();
  const close = useUiStore((s) => s.closeModal);
  const [title, setTitle] = useState(target.title);
  const rename = useRenameAlignment(target.id, {
    onSuccess: () => {
      toast.success(t('manage.renamed'));
      close();
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (title.trim()) rename.mutate(title.trim());
  };
  return (
    <form onSubmit={onSubmit} noValidate>
      <InputField
        label={t('manage.titleLabel')}
        value={title}
        maxLength={200}
        dir="auto"
        autoFocus
        onChange={(e) => setTitle(e.target.value)}
        error={!title.trim() ? t('manage.titleRequired') : rename.error ? rename.error.message : null}
      />
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="secondary" onClick={close}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={rename.isPending} disabled={!title.trim()}>
          {t('common.save')}
        </Button>
      </div>
    </form>
  );
}

interface AlignmentActionsProps {
  alignment: Target;
  /** After a delete, e.g. leave the results page of what no longer exists. */
  onDeleted?: () => void;
  size?: 'sm' | 'md';
}

export function AlignmentActions({ alignment, onDeleted, size = 'sm' }: AlignmentActionsProps) {
  const { t } = useTranslation();
  const openModal = useUiStore((s) => s.openModal);
  const retry = useRetryAlignment(alignment.id, {
    onSuccess: () => toast.info(t('manage.retried')),
    onError: (e) => toast.error(e.message),
  });
  const remove = useDeleteAlignment(alignment.id, {
    onSuccess: () => {
      onDeleted?.();
      toast.success(t('manage.deleted'));
    },
    onError: (e) => toast.error(e.message),
  });
  const canRetry = alignment.status === 'failed' || alignment.status === 'cancelled';
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="alignment-actions">
      {canRetry && (
        <Button size={size} onClick={() => retry.mutate()} loading={retry.isPending}>
          {t('manage.retry')}
        </Button>
      )}
      <Button
        size={size}
        variant="secondary"
        onClick={() =>
          openModal({
            title: t('manage.renameTitle'),
            size: 'sm',
            content: <RenameForm target={alignment} />,
          })
        }
      >
        {t('manage.rename')}
      </Button>
      <Button
        size={size}
        variant="ghost"
        className="text-danger"
        loading={remove.isPending}
        onClick={() =>
          confirmAction({
            title: t('manage.deleteTitle'),
            body: (
              <>
                {t('manage.deleteBody')} <bdi className="font-medium text-fg">{alignment.title}</bdi>
              </>
            ),
            action: t('manage.delete'),
            onConfirm: () => remove.mutateAsync().catch(() => undefined),
          })
        }
      >
        {t('manage.delete')}
      </Button>
    </div>
  );
}
