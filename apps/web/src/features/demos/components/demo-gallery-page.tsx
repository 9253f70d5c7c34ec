import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VerdictBadge } from '../../../components/alignment/verdict.tsx';
import { Link, useSearchParams } from 'react-router';
import { DEMO_DURATIONS } from '@tazamun/contracts/demos';
import { contentDirection } from '../../../lib/content-direction.ts';
import { formatDuration, formatPercent } from '../../../lib/format.ts';
import { Alert, EmptyState, PageHeader } from '../../../components/ui/card.tsx';
import { InputField, SelectField } from '../../../components/ui/field.tsx';
import { PlayIcon, WaveIcon } from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useDemos } from '../api/get-demos.ts';
import { useCategoryLabel } from '../../../lib/demo-category.ts';

function languageName(code: string, uiLang: string): string {
  try {
    return new Intl.DisplayNames([uiLang], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function DemoGalleryPage() {
  const { t, i18n } = useTranslation();
  const categoryLabel = useCategoryLabel();
  const [params, setParams] = useSearchParams();
  const [q, setQ] = useState(params.get('q') ?? '');
  const filters = {
    q: params.get('q') ?? undefined,
    category: params.get('category') ?? undefined,
    language: params.get('language') ?? undefined,
    duration: params.get('duration') ?? undefined,
  };
  const demos = useDemos(filters);
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true, preventScrollReset: true });
  };
  const data = demos.data;

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <PageHeader title={t('demos.title')} subtitle={t('demos.subtitle')} />
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          set('q', q.trim());
        }}
        className="mb-8 grid gap-4 rounded-2xl border border-border bg-surface p-4 sm:grid-cols-2 lg:grid-cols-4"
      >
        <InputField
          label={t('demos.search')}
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          onBlur={() => set('q', q.trim())}
          dir="auto"
        />
        <SelectField
          label={t('demos.category')}
          value={filters.category ?? ''}
          onChange={(e) => set('category', e.target.value)}
        >
          <option value="">{t('demos.all')}</option>
          {data?.categories.map((c) => (
            <option key={c} value={c}>
              {categoryLabel(c)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('demos.language')}
          value={filters.language ?? ''}
          onChange={(e) => set('language', e.target.value)}
        >
          <option value="">{t('demos.all')}</option>
          {data?.languages.map((l) => (
            <option key={l} value={l}>
              {languageName(l, i18n.language)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('demos.duration')}
          value={filters.duration ?? ''}
          onChange={(e) => set('duration', e.target.value)}
        >
          <option value="">{t('demos.all')}</option>
          {DEMO_DURATIONS.map((d) => (
            <option key={d} value={d}>
              {t(`demos.durations.${d}`)}
            </option>
          ))}
        </SelectField>
      </form>

      {demos.isPending && (
        <div className="flex justify-center py-16 text-accent">
          <Spinner label={t('common.loading')} />
        </div>
      )}
      {demos.isError && <Alert tone="danger">{demos.error.message}</Alert>}
      {data && data.results.length === 0 && data.preparing > 0 && (
        <div data-testid="demos-preparing">
          <EmptyState icon={<Spinner size={32} />} title={t('demos.preparingTitle')}>
            {t('demos.preparingBody', { count: data.preparing })}
          </EmptyState>
        </div>
      )}
      {data && data.results.length === 0 && data.preparing === 0 && (
        <EmptyState icon={<WaveIcon size={32} />} title={t('demos.emptyTitle')}>
          {t('demos.emptyBody')}
        </EmptyState>
      )}
      {data && data.results.length > 0 && (
        <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3" data-testid="demo-list">
          {data.results.map((d) => (
            <li key={d.id}>
              <Link
                to={`/demo/${d.id}`}
                className="group flex h-full flex-col rounded-2xl border border-border bg-surface p-5 transition-colors hover:border-accent/60"
              >
                <div className="flex items-center justify-between gap-2 text-xs">
                  <span className="rounded-full bg-accent-soft px-2 py-0.5 font-medium text-accent">
                    {categoryLabel(d.category)}
                  </span>
                  <span className="text-muted">{languageName(d.language, i18n.language)}</span>
                </div>
                <h2 className="mt-3 font-semibold" dir={contentDirection(d.language)}>
                  {d.title}
                </h2>
                <div className="mt-1.5 flex-1">
                  <p className="line-clamp-3 text-sm text-muted" dir="auto">
                    {d.description}
                  </p>
                </div>
                <div className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted">
                  {d.duration !== null && <span>{formatDuration(d.duration)}</span>}
                  {d.words !== null && <span>{t('demos.words', { count: d.words })}</span>}
                  {d.confidence !== null && (
                    <span>{t('demos.confidence', { value: formatPercent(d.confidence) })}</span>
                  )}
                  <VerdictBadge verdict={d.verdict} />
                  <span className="ms-auto inline-flex items-center gap-1 font-medium text-accent">
                    <PlayIcon size={14} /> {t('demos.open')}
                  </span>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
