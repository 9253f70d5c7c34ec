import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { VerdictBadge } from '../../../components/alignment/verdict.tsx';
import { Link } from 'react-router';
import { hasQuotaLeft } from '../../../lib/auth.ts';
import { useUser } from '../../../lib/api/get-user.ts';
import { useStats } from '../../../lib/api/get-stats.ts';
import { useAlignmentList } from '../../../lib/api/get-alignments.ts';
import { useProjects } from '../../../lib/api/get-projects.ts';
import { usePublicConfig } from '../../../lib/api/get-public-config.ts';
import { useLanguageName } from '../../../lib/use-language-name.ts';
import { formatDateTime, formatNumber, formatPercent } from '../../../lib/format.ts';
import { Card, CardTitle, EmptyState, PageHeader } from '../../../components/ui/card.tsx';
import {
  ArrowForwardIcon,
  FolderIcon,
  PlayIcon,
  UploadIcon,
  WaveIcon,
} from '../../../components/ui/icons.tsx';
import { Sep } from '../../../components/ui/separator.tsx';

function StatCard({
  label,
  value,
  detail,
  testId,
}: {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  testId: string;
}) {
  return (
    <Card className="p-5" data-testid={testId}>
      <p className="text-sm text-muted">{label}</p>
      <p className="mt-2 text-3xl font-semibold tracking-tight tabular-nums">{value}</p>
      {detail && <p className="mt-1 text-sm text-muted">{detail}</p>}
    </Card>
  );
}

function QuickAction({
  to,
  icon,
  title,
  body,
}: {
  to: string;
  icon: ReactNode;
  title: string;
  body: string;
}) {
  return (
    <Link
      to={to}
      className="group flex items-start gap-4 rounded-2xl border border-border bg-surface p-5 transition-colors hover:border-accent/60"
    >
      <span className="rounded-xl bg-accent-soft p-2.5 text-accent">{icon}</span>
      <span className="flex-1">
        <span className="block font-medium">{title}</span>
        <span className="mt-0.5 block text-sm text-muted">{body}</span>
      </span>
      <ArrowForwardIcon
        size={18}
        className="mt-1 text-muted transition-transform group-hover:translate-x-0.5 rtl:group-hover:-translate-x-0.5"
      />
    </Link>
  );
}

export function DashboardPage() {
  const { t } = useTranslation();
  const { user } = useUser();
  const stats = useStats();
  const recent = useAlignmentList({ page_size: 5 });
  const projects = useProjects();
  const languageName = useLanguageName();
  const config = usePublicConfig();
  if (!user) return null;
  const { quota } = user;
  const usedFraction = quota.daily_limit > 0 ? Math.min(1, quota.used_today / quota.daily_limit) : 1;
  const goodShare = stats.data?.good_share;
  const meanConfidence = stats.data?.mean_confidence;

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <PageHeader
        title={t('dashboard.welcome', { name: user.first_name || user.name })}
        subtitle={t('dashboard.subtitle')}
      />
      <div className="grid gap-4 md:grid-cols-3">
        <Card className="p-5" data-testid="quota-card">
          <p className="text-sm text-muted">{t('dashboard.quota.title')}</p>
          <p className="mt-2 text-3xl font-semibold tabular-nums">
            {formatNumber(quota.remaining)}
            <span className="ms-1 text-base font-normal text-muted">/ {formatNumber(quota.daily_limit)}</span>
          </p>
          <div
            className="mt-3 h-2 overflow-hidden rounded-full bg-surface-2"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={quota.daily_limit}
            aria-valuenow={quota.used_today}
            aria-label={t('dashboard.quota.used', { used: quota.used_today, limit: quota.daily_limit })}
          >
            <div className="h-full rounded-full bg-accent" style={{ width: `${usedFraction * 100}%` }} />
          </div>
          <p className="mt-2 text-sm text-muted">
            {hasQuotaLeft(user)
              ? t('dashboard.quota.remaining', { resets: formatDateTime(quota.resets_at) })
              : t('dashboard.quota.exhausted', { resets: formatDateTime(quota.resets_at) })}
          </p>
          {/* nothing to upgrade: more each day is a question for this server's administrators */}
          <p className="mt-1 text-xs text-muted" data-testid="quota-more">
            {config.data?.support_email ? (
              <>
                {t('dashboard.quota.more')}{' '}
                <a
                  className="text-accent hover:underline"
                  href={`mailto:${config.data.support_email}?subject=${encodeURIComponent(t('dashboard.quota.moreSubject'))}`}
                  dir="ltr"
                >
                  {config.data.support_email}
                </a>
              </>
            ) : (
              t('dashboard.quota.moreNoAddress')
            )}
          </p>
        </Card>
        <StatCard
          testId="total-alignments"
          label={t('dashboard.stats.total')}
          value={stats.data ? formatNumber(stats.data.total_alignments) : '—'}
          detail={
            stats.data
              ? t('dashboard.stats.completed', { count: stats.data.completed_alignments })
              : undefined
          }
        />
        <StatCard
          testId="good-share"
          label={t('dashboard.stats.goodShare')}
          value={goodShare === null || goodShare === undefined ? '—' : formatPercent(goodShare)}
          detail={
            goodShare === null || goodShare === undefined
              ? t('dashboard.stats.goodShareNone')
              : `${t('dashboard.stats.goodShareHint')}${t('common.separator')}${t('dashboard.stats.meanConfidence')} ${
                  meanConfidence === null || meanConfidence === undefined
                    ? '—'
                    : formatPercent(meanConfidence)
                }`
          }
        />
      </div>

      <h2 className="mt-10 mb-4 text-lg font-semibold">{t('dashboard.quick.title')}</h2>
      <div className="grid gap-4 md:grid-cols-3">
        <QuickAction
          to="/upload"
          icon={<UploadIcon />}
          title={t('dashboard.quick.upload')}
          body={t('dashboard.quick.uploadBody')}
        />
        <QuickAction
          to="/projects"
          icon={<FolderIcon />}
          title={t('dashboard.quick.projects')}
          body={t('dashboard.quick.projectsBody')}
        />
        <QuickAction
          to="/demos"
          icon={<PlayIcon />}
          title={t('dashboard.quick.demos')}
          body={t('dashboard.quick.demosBody')}
        />
      </div>

      <div className="mt-10 grid min-w-0 gap-6 lg:grid-cols-[1fr_2fr]">
        <Card className="min-w-0">
          <CardTitle
            action={
              <Link to="/projects" className="text-sm font-medium text-accent hover:underline">
                {t('dashboard.projects.all')}
              </Link>
            }
          >
            {t('dashboard.projects.title')}
          </CardTitle>
          {projects.data && projects.data.results.length > 0 ? (
            <ul className="divide-y divide-border" data-testid="recent-projects">
              {[...projects.data.results]
                .sort((a, b) => (a.updated_at < b.updated_at ? 1 : -1))
                .slice(0, 5)
                .map((p) => (
                  <li key={p.id} className="py-3">
                    <Link
                      to={`/projects?project=${p.id}`}
                      className="font-medium hover:text-accent"
                      dir="auto"
                    >
                      {p.name}
                    </Link>
                    <p className="text-xs text-muted">
                      {t('dashboard.projects.count', { count: p.alignments_count })}
                      <Sep />
                      {formatDateTime(p.updated_at)}
                    </p>
                  </li>
                ))}
            </ul>
          ) : (
            <p className="text-sm text-muted">{t('dashboard.projects.empty')}</p>
          )}
        </Card>
        <Card className="min-w-0">
          <CardTitle
            action={
              <Link to="/projects" className="text-sm font-medium text-accent hover:underline">
                {t('dashboard.recent.all')}
              </Link>
            }
          >
            {t('dashboard.recent.title')}
          </CardTitle>
          {recent.data && recent.data.results.length > 0 ? (
            <ul className="divide-y divide-border" data-testid="recent-alignments">
              {recent.data.results.map((a) => (
                <li key={a.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div className="min-w-0">
                    <Link to={`/results/${a.id}`} className="font-medium hover:text-accent" dir="auto">
                      {a.title}
                    </Link>
                    <p className="text-xs text-muted">
                      {languageName(a.language)}
                      <Sep />
                      {formatDateTime(a.created_at)}
                    </p>
                  </div>
                  <span className="flex items-center gap-2">
                    <VerdictBadge verdict={a.verdict} />
                    <span className="rounded-full bg-surface-2 px-2.5 py-0.5 text-xs">
                      {t(`results.status.${a.status}`)}
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <EmptyState icon={<WaveIcon size={32} />} title={t('dashboard.recent.emptyTitle')}>
              {t('dashboard.recent.emptyBody')}
            </EmptyState>
          )}
        </Card>
      </div>
    </div>
  );
}
