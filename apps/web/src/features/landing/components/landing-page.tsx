import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EXPORT_FORMATS, LIMITS, UI_LANGUAGES } from '@tazamun/contracts/limits';
import { useUser } from '../../../lib/api/get-user.ts';
import { useExampleDemos } from '../api/get-example-demos.ts';
import { usePublicStats } from '../api/get-public-stats.ts';
import { usePublicConfig } from '../../../lib/api/get-public-config.ts';
import { formatBytes, formatNumber } from '../../../lib/format.ts';
import { ButtonLink } from '../../../components/ui/button.tsx';
import {
  ArrowForwardIcon,
  CodeIcon,
  FileIcon,
  GaugeIcon,
  LanguagesIcon,
  PlayIcon,
  ShieldIcon,
  UploadIcon,
  WaveIcon,
} from '../../../components/ui/icons.tsx';
import { useCategoryLabel } from '../../../lib/demo-category.ts';
import { Sep } from '../../../components/ui/separator.tsx';

// Bar heights of the decorative waveform in the hero (an illustration, not data).
const BARS = [
  18, 32, 52, 40, 64, 30, 22, 46, 70, 58, 36, 24, 40, 62, 48, 28, 18, 34, 56, 44, 30, 52, 66, 38, 26, 20, 42,
  60, 50, 32,
];
const WORD_SPANS = [
  [0, 5],
  [6, 12],
  [13, 20],
  [21, 29],
] as const;

function HeroVisual() {
  const { t } = useTranslation();
  const words = t('landing.hero.sampleWords').split(' ');
  return (
    <div
      aria-hidden
      className="relative rounded-2xl border border-border bg-surface p-5 shadow-xl shadow-black/5"
    >
      <div className="mb-4 flex items-center gap-2 text-xs text-muted">
        <span className="size-2.5 rounded-full bg-danger/70" />
        <span className="size-2.5 rounded-full bg-warning/70" />
        <span className="size-2.5 rounded-full bg-success/70" />
      </div>
      <div className="flex h-24 items-center gap-[3px]">
        {BARS.map((h, i) => {
          const active = WORD_SPANS.findIndex(([a, b]) => i >= a && i <= b);
          return (
            <span
              key={i}
              className={`flex-1 rounded-full ${active % 2 === 0 ? 'bg-accent' : active >= 0 ? 'bg-accent/55' : 'bg-border'}`}
              style={{ height: `${h}%` }}
            />
          );
        })}
      </div>
      <div className="mt-4 grid grid-cols-4 gap-2">
        {WORD_SPANS.map((_, i) => (
          <span
            key={i}
            dir="auto"
            className={`truncate rounded-md px-2 py-1 text-center text-sm font-medium ${
              i % 2 === 0 ? 'bg-accent-soft text-accent' : 'bg-surface-2 text-fg'
            }`}
          >
            {words[i] ?? ''}
          </span>
        ))}
      </div>
    </div>
  );
}

function languageName(code: string, uiLang: string): string {
  try {
    return new Intl.DisplayNames([uiLang], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

function Section({
  id,
  title,
  intro,
  children,
}: {
  id: string;
  title: string;
  intro?: string;
  children: ReactNode;
}) {
  return (
    <section id={id} className="mx-auto max-w-6xl scroll-mt-20 px-4 py-16 sm:px-6">
      <h2 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h2>
      {intro && <p className="mt-2 max-w-2xl text-muted">{intro}</p>}
      <div className="mt-8">{children}</div>
    </section>
  );
}

function Tile({ icon, title, body }: { icon: ReactNode; title: string; body: string }) {
  return (
    <div className="rounded-2xl border border-border bg-surface p-6">
      <span className="inline-flex rounded-xl bg-accent-soft p-2.5 text-accent">{icon}</span>
      <h3 className="mt-4 font-semibold">{title}</h3>
      <p className="mt-1.5 text-sm leading-relaxed text-muted">{body}</p>
    </div>
  );
}

const USAGE_FIGURES_MIN_HOURS = 1;

export function LandingPage() {
  const { t, i18n } = useTranslation();
  const categoryLabel = useCategoryLabel();
  const { user } = useUser();
  const examples = useExampleDemos().data ?? [];
  const config = usePublicConfig().data;
  const startTo = user ? (user.is_approved ? '/dashboard' : '/waitlist') : '/auth?view=register';

  // Only figures this deployment actually measures or states. Usage counts wait until there is an hour
  // of aligned audio: "0.02 hours" or "3 alignments" on a new server says nothing to a visitor.
  const publicStats = usePublicStats().data;
  const facts = [
    ...(config ? [{ value: formatNumber(config.default_daily_quota), label: t('landing.stats.quota') }] : []),
    { value: formatNumber(EXPORT_FORMATS.length), label: t('landing.stats.formats') },
    { value: formatBytes(LIMITS.audioMaxBytes), label: t('landing.stats.audioMax') },
    { value: formatNumber(UI_LANGUAGES.length), label: t('landing.stats.interfaceLanguages') },
  ];
  const languages = publicStats
    ? [{ value: formatNumber(publicStats.languages_supported), label: t('landing.stats.languages') }]
    : [];
  const usage =
    publicStats && publicStats.hours_aligned >= USAGE_FIGURES_MIN_HOURS
      ? [
          { value: formatNumber(publicStats.alignments_completed), label: t('landing.stats.alignments') },
          {
            value: formatNumber(publicStats.hours_aligned, { maximumFractionDigits: 1 }),
            label: t('landing.stats.hours'),
          },
          { value: formatNumber(publicStats.words_aligned), label: t('landing.stats.words') },
        ]
      : null;
  const stats: { value: string; label: string }[] = [...languages, ...(usage ?? facts)];

  return (
    <div>
      <section className="relative overflow-hidden border-b border-border">
        <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(60rem_30rem_at_80%_-10%,var(--accent-soft),transparent)] rtl:bg-[radial-gradient(60rem_30rem_at_20%_-10%,var(--accent-soft),transparent)]" />
        <div className="relative mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 lg:grid-cols-[1.1fr_1fr] lg:py-24">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full border border-border bg-surface px-3 py-1 text-xs font-medium text-muted">
              <span className="size-1.5 rounded-full bg-accent" />
              {t('landing.hero.badge')}
            </p>
            <h1 className="mt-5 text-4xl leading-tight font-semibold tracking-tight text-balance sm:text-5xl">
              {t('landing.hero.title')}
            </h1>
            <p className="mt-5 max-w-xl text-lg leading-relaxed text-muted">{t('landing.hero.subtitle')}</p>
            <div className="mt-8 flex flex-wrap gap-3">
              <ButtonLink to={startTo} size="lg">
                {user ? t('landing.hero.ctaDashboard') : t('landing.hero.cta')}
                <ArrowForwardIcon size={18} />
              </ButtonLink>
              <ButtonLink to="/demos" size="lg" variant="secondary">
                <PlayIcon size={16} />
                {t('landing.hero.demos')}
              </ButtonLink>
            </div>
          </div>
          <HeroVisual />
        </div>
      </section>

      <section aria-label={t('landing.stats.title')} className="border-b border-border bg-surface/50">
        <dl className="mx-auto grid max-w-6xl auto-cols-fr grid-cols-2 gap-6 px-4 py-10 sm:px-6 md:grid-flow-col md:grid-cols-none">
          {stats.map((s) => (
            <div key={s.label} className="flex flex-col-reverse text-center">
              <dt className="mt-1 text-sm text-muted">{s.label}</dt>
              <dd className="text-3xl font-semibold tracking-tight text-accent tabular-nums">{s.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <Section id="advantages" title={t('landing.advantages.title')} intro={t('landing.advantages.intro')}>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Tile
            icon={<LanguagesIcon />}
            title={t('landing.advantages.arabic.title')}
            body={t('landing.advantages.arabic.body')}
          />
          <Tile
            icon={<GaugeIcon />}
            title={t('landing.advantages.free.title')}
            body={t('landing.advantages.free.body')}
          />
          <Tile
            icon={<ShieldIcon />}
            title={t('landing.advantages.privacy.title')}
            body={t('landing.advantages.privacy.body')}
          />
          <Tile
            icon={<CodeIcon />}
            title={t('landing.advantages.open.title')}
            body={t('landing.advantages.open.body')}
          />
        </div>
      </Section>

      <Section id="features" title={t('landing.features.title')} intro={t('landing.features.intro')}>
        <div className="grid gap-4 md:grid-cols-3">
          <Tile
            icon={<WaveIcon />}
            title={t('landing.features.timings.title')}
            body={t('landing.features.timings.body')}
          />
          <Tile
            icon={<GaugeIcon />}
            title={t('landing.features.metrics.title')}
            body={t('landing.features.metrics.body')}
          />
          <Tile
            icon={<FileIcon />}
            title={t('landing.features.exports.title')}
            body={t('landing.features.exports.body')}
          />
          <Tile
            icon={<LanguagesIcon />}
            title={t('landing.features.normalise.title')}
            body={t('landing.features.normalise.body')}
          />
          <Tile
            icon={<UploadIcon />}
            title={t('landing.features.long.title')}
            body={t('landing.features.long.body')}
          />
          <Tile
            icon={<CodeIcon />}
            title={t('landing.features.api.title')}
            body={t('landing.features.api.body')}
          />
        </div>
      </Section>

      <Section id="how" title={t('landing.steps.title')}>
        <ol className="grid gap-4 md:grid-cols-3">
          {(['one', 'two', 'three'] as const).map((step, i) => (
            <li key={step} className="relative rounded-2xl border border-border bg-surface p-6">
              <span className="flex size-9 items-center justify-center rounded-full bg-accent font-semibold text-accent-fg">
                {formatNumber(i + 1)}
              </span>
              <h3 className="mt-4 font-semibold">{t(`landing.steps.${step}.title`)}</h3>
              <p className="mt-1.5 text-sm leading-relaxed text-muted">{t(`landing.steps.${step}.body`)}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="examples" title={t('landing.examples.title')} intro={t('landing.examples.intro')}>
        {examples.length > 0 ? (
          <div className="grid gap-4 md:grid-cols-3" data-testid="examples">
            {examples.map((d) => (
              <Link
                key={d.id}
                to={`/demo/${d.id}`}
                className="group flex flex-col rounded-2xl border border-border bg-surface p-6 transition-colors hover:border-accent/60"
              >
                <p className="text-xs font-semibold tracking-wide text-accent uppercase">
                  {languageName(d.language, i18n.language)}
                  <Sep />
                  {categoryLabel(d.category)}
                </p>
                <h3 className="mt-2 font-semibold" dir="auto">
                  {d.title}
                </h3>
                <p className="mt-1.5 line-clamp-3 text-sm text-muted" dir="auto">
                  {d.description}
                </p>
                <span className="mt-auto inline-flex items-center gap-1.5 pt-4 text-sm font-medium text-accent">
                  {t('landing.examples.open')} <ArrowForwardIcon size={16} />
                </span>
              </Link>
            ))}
          </div>
        ) : (
          <ButtonLink to="/demos" variant="secondary">
            {t('landing.examples.open')} <ArrowForwardIcon size={16} />
          </ButtonLink>
        )}
      </Section>

      <section className="mx-auto max-w-6xl px-4 pb-8 sm:px-6">
        <div className="rounded-3xl border border-border bg-gradient-to-br from-accent-soft to-surface p-8 text-center sm:p-12">
          <h2 className="text-2xl font-semibold tracking-tight sm:text-3xl">{t('landing.cta.title')}</h2>
          <p className="mx-auto mt-3 max-w-xl text-muted">{t('landing.cta.body')}</p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <ButtonLink to={startTo} size="lg">
              {user ? t('landing.hero.ctaDashboard') : t('landing.cta.button')}
            </ButtonLink>
            <ButtonLink to="/about" size="lg" variant="secondary">
              {t('nav.about')}
            </ButtonLink>
          </div>
        </div>
      </section>
    </div>
  );
}
