// The list of the workspace's keyboard shortcuts (key-map.ts), opened from the toolbar or with "?".
import { useTranslation } from 'react-i18next';
import { SHORTCUTS } from './key-map.ts';

export function ShortcutsHelp() {
  const { t } = useTranslation();
  return (
    <section
      id="editor-shortcuts"
      className="rounded-xl border border-border bg-surface p-4"
      data-testid="shortcuts-help"
    >
      <h3 className="mb-2 font-semibold">{t('editor.help.title')}</h3>
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        {SHORTCUTS.map(([k, v]) => (
          <div key={v} className="flex min-w-0 gap-3">
            <dt dir="ltr" className="w-40 shrink-0 whitespace-nowrap">
              <kbd className="rounded border border-border bg-surface-2 px-1.5 font-mono text-xs">{k}</kbd>
            </dt>
            <dd className="min-w-0 text-muted">{t(`editor.help.${v}`)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
