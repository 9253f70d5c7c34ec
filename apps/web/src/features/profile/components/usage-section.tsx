import { useTranslation } from 'react-i18next';
import type { User } from '@tazamun/contracts/auth';
import { Link } from 'react-router';
import { useStats } from '../../../lib/api/get-stats.ts';
import { useLanguageName } from '../../../lib/use-language-name.ts';
import { useAlignmentList } from '../../../lib/api/get-alignments.ts';
import { formatDateTime, formatDuration, formatNumber, formatPercent } from '../../../lib/format.ts';
import { Card, CardTitle, EmptyState } from '../../../components/ui/card.tsx';
import { WaveIcon } from '../../../components/ui/icons.tsx';
import { Facts } from '../../../components/ui/separator.tsx';

export function UsageSection({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const languageName = useLanguageName();
  const stats = useStats().data;
  const rows: [string, string][] = [
    [
      t('profile.usage.quota'),
      `${formatNumber(user.quota.used_today)} / ${formatNumber(user.quota.daily_limit)}`,
    ],
    [t('profile.usage.resets'), formatDateTime(user.quota.resets_at)],
    [t('dashboard.stats.total'), stats ? formatNumber(stats.total_alignments) : '—'],
    [
      t('dashboard.stats.goodShare'),
      stats?.good_share === null || stats?.good_share === undefined ? '—' : formatPercent(stats.good_share),
    ],
    [
      t('dashboard.stats.meanConfidence'),
      stats?.mean_confidence === null || stats?.mean_confidence === undefined
        ? '—'
        : formatPercent(stats.mean_confidence),
    ],
    [t('profile.usage.duration'), stats ? formatDuration(stats.total_duration_seconds) : '—'],
    [
      t('profile.usage.languages'),
      stats && stats.languages_used.length > 0
        ? stats.languages_used.map(languageName).join(i18n.language === 'ar' ? '، ' : ', ')
        : '—',
    ],
  ];
  return (
    <Card>
      <CardTitle>{t('profile.usage.title')}</CardTitle>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {rows.map(([label, value]) => (
          <div key={label} className="rounded-xl bg-surface-2 p-4">
            <dt className="text-sm text-muted">{label}</dt>
            <dd className="mt-1 text-lg font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

export function AlignmentsSection() {
  const { t } = useTranslation();
  const list = useAlignmentList({ page_size: 10 });
  const items = list.data?.results ?? [];
  return (
    <Card>
      <CardTitle
        action={
          <Link to="/projects" className="text-sm font-medium text-accent hover:underline">
            {t('dashboard.recent.all')}
          </Link>
        }
      >
        {t('profile.alignments.title')}
      </CardTitle>
      {items.length === 0 ? (
        <EmptyState icon={<WaveIcon size={32} />} title={t('dashboard.recent.emptyTitle')}>
          {t('profile.alignments.empty')}
        </EmptyState>
      ) : (
        <ul className="divide-y divide-border">
          {items.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center justify-between gap-3 py-2.5">
              <Link
                to={`/results/${a.id}`}
                className="min-w-0 truncate font-medium hover:text-accent"
                dir="auto"
              >
                {a.title}
              </Link>
              <span className="text-xs text-muted">
                <Facts>
                  {t(`results.status.${a.status}`)}
                  {a.confidence !== null && formatPercent(a.confidence)}
                  {formatDateTime(a.created_at)}
                </Facts>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
