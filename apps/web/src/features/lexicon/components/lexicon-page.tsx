// The personal lexicon: the pronunciations (IPA) the aligner uses for the user's words before the
// model's dictionary, the Arabic rules and eSpeak. Per language: search, add, edit, delete, import and
// export as an MFA dictionary, and beside each entry what the aligner would say without it.
import { useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { LexiconEntry } from '@tazamun/contracts/lexicon';
import { useUser } from '../../../lib/api/get-user.ts';
import { saveBlob } from '../../../lib/download.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useLanguageName } from '../../../lib/use-language-name.ts';
import { contentDirection } from '../../../lib/content-direction.ts';
import { LanguagePicker } from '../../../components/alignment/language-picker.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, CardTitle, EmptyState, PageHeader } from '../../../components/ui/card.tsx';
import { InputField } from '../../../components/ui/field.tsx';
import { confirmAction } from '../../../components/ui/confirm.tsx';
import { LanguagesIcon } from '../../../components/ui/icons.tsx';
import { toast } from '../../../stores/ui-store.ts';
import { useLexicon } from '../api/get-lexicon.ts';
import { useLexiconPreview } from '../api/get-lexicon-preview.ts';
import {
  useDeleteEntry,
  useExportDictionary,
  useImportDictionary,
  useSaveEntry,
} from '../api/lexicon-api.ts';
import { Sep } from '../../../components/ui/separator.tsx';

/** The preview has room for this many words of text at once: the first entries shown. */
const PREVIEW_WORDS = 300;

const key = (w: string) => w.normalize('NFC').toLowerCase();

function EntryRow({
  entry,
  preview,
}: {
  entry: LexiconEntry;
  preview: { source: string; ipa: string } | null | undefined;
}) {
  const { t } = useTranslation();
  const [ipa, setIpa] = useState(entry.ipa);
  const save = useSaveEntry({
    onSuccess: () => toast.success(t('lexicon.saved', { word: entry.word })),
    onError: (e) => toast.error(e.message),
  });
  const remove = useDeleteEntry({
    onSuccess: () => toast.success(t('lexicon.deleted', { word: entry.word })),
    onError: (e) => toast.error(e.message),
  });
  const changed = ipa.trim() !== entry.ipa && ipa.trim() !== '';
  return (
    <li
      className="grid gap-x-4 gap-y-2 px-4 py-3 sm:grid-cols-[minmax(7rem,1fr)_minmax(10rem,1.4fr)_minmax(8rem,1.2fr)_auto] sm:items-center"
      data-entry={entry.word}
    >
      <span className="font-medium break-words" dir={contentDirection(entry.language)} lang={entry.language}>
        {entry.word}
      </span>
      <form
        className="flex min-w-0 gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (changed) save.mutate({ language: entry.language, word: entry.word, ipa: ipa.trim() });
        }}
      >
        <label className="sr-only" htmlFor={`ipa-${entry.id}`}>
          {t('lexicon.ipaOf', { word: entry.word })}
        </label>
        <input
          id={`ipa-${entry.id}`}
          dir="ltr"
          lang="und-fonipa"
          value={ipa}
          onChange={(e) => setIpa(e.target.value)}
          className="h-9 w-0 min-w-0 flex-1 rounded-md border border-border bg-surface px-2 font-mono text-sm"
        />
        {changed && (
          <Button size="sm" type="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        )}
      </form>
      <span className="min-w-0 text-sm text-muted" data-testid="entry-preview">
        <span className="sm:hidden">{t('lexicon.columns.without')}: </span>
        {preview === undefined ? (
          '…'
        ) : preview === null ? (
          '—'
        ) : (
          <>
            <span dir="ltr" lang="und-fonipa" className="font-mono text-fg">
              {preview.ipa || '—'}
            </span>{' '}
            <span className="text-xs">
              ({t(`upload.pronunciation.sources.${preview.source as 'espeak'}`)})
            </span>
          </>
        )}
      </span>
      <Button
        size="sm"
        variant="ghost"
        className="justify-self-start text-danger sm:justify-self-end"
        aria-label={t('lexicon.deleteWord', { word: entry.word })}
        onClick={() =>
          confirmAction({
            title: t('lexicon.deleteTitle'),
            body: t('lexicon.deleteBody', { word: entry.word }),
            action: t('lexicon.delete'),
            onConfirm: () => remove.mutateAsync(entry.id),
          })
        }
      >
        {t('lexicon.delete')}
      </Button>
    </li>
  );
}

export function LexiconPage() {
  const { t } = useTranslation();
  const { user } = useUser();
  const languageName = useLanguageName();
  const lexicon = useLexicon();
  const [language, setLanguage] = useState(user?.preferences.default_alignment_language ?? 'ara');
  const [q, setQ] = useState('');
  const [word, setWord] = useState('');
  const [ipa, setIpa] = useState('');
  const [errors, setErrors] = useState<{ word?: string; ipa?: string }>({});
  const [skipped, setSkipped] = useState<{ line: number; reason: string }[] | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const valid = /^[a-z]{3}$/.test(language);

  const all = useMemo(() => lexicon.data?.results ?? [], [lexicon.data]);
  const counts = useMemo(() => {
    const m = new Map<string, number>();
    for (const e of all) m.set(e.language, (m.get(e.language) ?? 0) + 1);
    return [...m.entries()].sort((a, b) => b[1] - a[1]);
  }, [all]);
  const entries = useMemo(() => {
    const needle = key(q.trim());
    return all
      .filter((e) => e.language === language)
      .filter((e) => !needle || key(e.word).includes(needle) || e.ipa.includes(q.trim()));
  }, [all, language, q]);
  const shown = entries.slice(0, PREVIEW_WORDS);
  const preview = useLexiconPreview(
    language,
    shown.map((e) => e.word),
  );
  const previewOf = (w: string) => {
    if (!preview.data) return preview.isError ? null : undefined;
    const found = preview.data.words.find((p) => key(p.word) === key(w));
    return found ? { source: found.source, ipa: found.ipa } : null;
  };

  const add = useSaveEntry({
    onSuccess: (e) => {
      toast.success(t('lexicon.saved', { word: e.word }));
      setWord('');
      setIpa('');
    },
    onError: (e) => toast.error(e.message),
  });
  const importing = useImportDictionary(language, {
    onSuccess: (r) => {
      toast.success(t('lexicon.imported', { count: r.imported }));
      setSkipped(r.skipped);
    },
    onError: (e) => toast.error(e.message),
  });
  const exporting = useExportDictionary(language, {
    onSuccess: (blob) => saveBlob(blob, `lexicon-${language}.dict`),
    onError: (e) => toast.error(e.message),
  });

  const onAdd = (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!word.trim()) next.word = t('lexicon.errors.word');
    else if (/\s/.test(word.trim())) next.word = t('lexicon.errors.oneWord');
    if (!ipa.trim()) next.ipa = t('lexicon.errors.ipa');
    setErrors(next);
    if (!Object.keys(next).length && valid) add.mutate({ language, word: word.trim(), ipa: ipa.trim() });
  };

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <PageHeader title={t('lexicon.title')} subtitle={t('lexicon.subtitle')} />
      <Card className="min-w-0">
        <div className="grid gap-4 md:grid-cols-[minmax(0,18rem)_minmax(0,1fr)] md:items-start">
          <LanguagePicker
            label={t('lexicon.language')}
            value={language}
            onChange={setLanguage}
            error={valid ? null : t('profile.preferences.alignmentLanguageInvalid')}
          />
          <InputField
            label={t('lexicon.search')}
            type="search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            dir="auto"
          />
        </div>
        {counts.length > 0 && (
          <div className="mt-4 flex flex-wrap gap-2" role="group" aria-label={t('lexicon.languages')}>
            {counts.map(([code, n]) => (
              <button
                key={code}
                type="button"
                aria-pressed={code === language}
                onClick={() => setLanguage(code)}
                className={`rounded-full px-3 py-1 text-sm ${code === language ? 'bg-accent text-accent-fg' : 'bg-surface-2 text-fg hover:bg-border'}`}
              >
                {languageName(code)}
                <Sep />
                {formatNumber(n)}
              </button>
            ))}
          </div>
        )}
        <div className="mt-4 flex flex-wrap gap-2">
          <input
            ref={fileInput}
            type="file"
            accept=".dict,.txt,.tsv,text/plain,text/tab-separated-values"
            className="hidden"
            data-testid="lexicon-import-input"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) importing.mutate(file);
              e.target.value = '';
            }}
          />
          <Button
            variant="secondary"
            size="sm"
            disabled={!valid}
            loading={importing.isPending}
            onClick={() => fileInput.current?.click()}
          >
            {t('lexicon.import')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={!valid || entries.length === 0}
            loading={exporting.isPending}
            onClick={() => exporting.mutate()}
          >
            {t('lexicon.export')}
          </Button>
          <p className="w-full text-xs text-muted">{t('lexicon.formatHint')}</p>
        </div>
        {skipped && skipped.length > 0 && (
          <div className="mt-3">
            <Alert tone="warning" title={t('lexicon.skipped', { count: skipped.length })}>
              <ul className="list-disc ps-5">
                {skipped.slice(0, 20).map((s) => (
                  <li key={s.line}>
                    {t('lexicon.skippedLine', { line: formatNumber(s.line), reason: s.reason })}
                  </li>
                ))}
              </ul>
            </Alert>
          </div>
        )}
      </Card>

      <Card className="mt-6 min-w-0">
        <CardTitle>{t('lexicon.addTitle', { language: languageName(language) })}</CardTitle>
        <form className="grid gap-3 sm:grid-cols-[1fr_1.4fr_auto] sm:items-start" onSubmit={onAdd} noValidate>
          <InputField
            label={t('lexicon.word')}
            value={word}
            dir={contentDirection(language)}
            onChange={(e) => setWord(e.target.value)}
            error={errors.word}
          />
          <InputField
            label={t('lexicon.ipa')}
            value={ipa}
            dir="ltr"
            lang="und-fonipa"
            className="font-mono"
            onChange={(e) => setIpa(e.target.value)}
            error={errors.ipa}
            hint={t('lexicon.ipaHint')}
          />
          <Button type="submit" className="sm:mt-7" loading={add.isPending} disabled={!valid}>
            {t('lexicon.add')}
          </Button>
        </form>
      </Card>

      <Card className="mt-6 min-w-0 p-0">
        <div className="hidden grid-cols-[minmax(7rem,1fr)_minmax(10rem,1.4fr)_minmax(8rem,1.2fr)_auto] gap-x-4 border-b border-border px-4 py-2 text-sm text-muted sm:grid">
          <span>{t('lexicon.columns.word')}</span>
          <span>{t('lexicon.columns.ipa')}</span>
          <span>{t('lexicon.columns.without')}</span>
          <span className="sr-only">{t('lexicon.columns.actions')}</span>
        </div>
        {lexicon.isPending ? (
          <p className="p-6 text-muted">{t('common.loading')}</p>
        ) : entries.length === 0 ? (
          <EmptyState icon={<LanguagesIcon size={32} />} title={t('lexicon.emptyTitle')}>
            {q ? t('lexicon.noMatch') : t('lexicon.empty', { language: languageName(language) })}
          </EmptyState>
        ) : (
          <ul className="divide-y divide-border" data-testid="lexicon-entries">
            {entries.map((e) => (
              <EntryRow key={`${e.id}:${e.ipa}`} entry={e} preview={previewOf(e.word)} />
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
