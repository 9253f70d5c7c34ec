import { useTranslation } from 'react-i18next';
import type { User } from '@tazamun/contracts/auth';
import { useStats } from '../../../lib/account.ts';
import { formatDateTime, formatDuration, formatNumber, formatPercent } from '../../../lib/format.ts';
import { Card, CardTitle, EmptyState } from '../../../components/ui/card.tsx';
import { WaveIcon } from '../../../components/ui/icons.tsx';

export function UsageSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const stats = useStats().data;
  const rows: [string, string][] = [
    [
      t('profile.usage.quota'),
      `${formatNumber(user.quota.used_today)} / ${formatNumber(user.quota.daily_limit)}`,
    ],
    [t('profile.usage.resets'), formatDateTime(user.quota.resets_at)],
    [t('dashboard.stats.total'), stats ? formatNumber(stats.total_alignments) : '—'],
    [
      t('dashboard.stats.accuracy'),
      stats?.average_accuracy === null || stats?.average_accuracy === undefined
        ? '—'
        : formatPercent(stats.average_accuracy),
    ],
    [t('profile.usage.duration'), stats ? formatDuration(stats.total_duration_seconds) : '—'],
    [
      t('profile.usage.languages'),
      stats && stats.languages_used.length > 0 ? stats.languages_used.join(', ') : '—',
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
  return (
    <Card>
      <CardTitle>{t('profile.alignments.title')}</CardTitle>
      <EmptyState icon={<WaveIcon size={32} />} title={t('dashboard.recent.emptyTitle')}>
        {t('profile.alignments.empty')}
      </EmptyState>
    </Card>
  );
}
