// Undo, redo and save, the revision the draft is based on, and why the last save was refused (with a
// reload when another revision was saved meanwhile).
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Sep } from '../../../components/ui/separator.tsx';

export interface SaveError {
  message: string;
  /** another revision was saved since this draft's */
  conflict: boolean;
}

export function SaveBar({
  revision,
  dirty,
  saving,
  canUndo,
  canRedo,
  error,
  onUndo,
  onRedo,
  onSave,
  onReload,
}: {
  revision: number;
  dirty: boolean;
  saving: boolean;
  canUndo: boolean;
  canRedo: boolean;
  error: SaveError | null;
  onUndo: () => void;
  onRedo: () => void;
  onSave: () => void;
  onReload: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          variant="secondary"
          onClick={onUndo}
          disabled={!canUndo}
          aria-keyshortcuts="Control+Z"
        >
          {t('editor.undo')}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={onRedo}
          disabled={!canRedo}
          aria-keyshortcuts="Control+Shift+Z"
        >
          {t('editor.redo')}
        </Button>
        <Button size="sm" onClick={onSave} disabled={!dirty} loading={saving} aria-keyshortcuts="Control+S">
          {t('editor.save')}
        </Button>
        <span className="text-sm text-muted" data-testid="editor-state" role="status">
          {t('editor.revisionOf', { n: revision })}
          <Sep />
          {dirty ? t('editor.unsaved') : t('editor.upToDate')}
        </span>
      </div>
      {error && (
        <Alert tone="danger">
          <p>{error.message}</p>
          {error.conflict && (
            <Button size="sm" variant="secondary" className="mt-2" onClick={onReload}>
              {t('editor.reload')}
            </Button>
          )}
        </Alert>
      )}
    </>
  );
}
