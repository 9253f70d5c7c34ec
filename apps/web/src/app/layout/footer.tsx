import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { APP_VERSION, COPYRIGHT_YEAR } from '@tazamun/contracts/limits';
import { useHealth } from '../../lib/api/get-health.ts';
import { usePublicConfig } from '../../lib/api/get-public-config.ts';
import { useSourceLink } from '../../lib/source-link.ts';
import { formatNumber } from '../../lib/format.ts';
import { CodeIcon, GlobeIcon, MailIcon } from '../../components/ui/icons.tsx';
import { Sep } from '../../components/ui/separator.tsx';

function StatusIndicator() {
  const { t } = useTranslation();
  const health = useHealth();
  const tone = health === 'ok' ? 'bg-success' : health === 'down' ? 'bg-danger' : 'bg-muted';
  return (
    <span
      className="inline-flex items-center gap-2 text-sm text-muted"
      data-testid="status"
      data-status={health}
    >
      <span
        className={`size-2 rounded-full ${tone} ${health === 'ok' ? 'shadow-[0_0_0_3px] shadow-success/20' : ''}`}
      />
      {t(`footer.status.${health}`)}
    </span>
  );
}

export function Footer() {
  const { t } = useTranslation();
  const config = usePublicConfig().data;
  const support = config?.support_email ?? null;
  const source = useSourceLink();
  const link = 'text-sm text-muted transition-colors hover:text-fg';
  const social =
    'inline-flex size-9 items-center justify-center rounded-lg border border-border text-muted hover:text-fg';
  return (
    <footer className="mt-16 border-t border-border bg-surface/40">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[1.4fr_1fr_1fr_1fr]">
        <div className="space-y-4">
          <p className="text-lg font-semibold">{t('brand.name')}</p>
          <p className="max-w-xs text-sm text-muted">{t('footer.tagline')}</p>
          <div className="flex gap-2">
            <Link
              to="/about#source"
              className={social}
              aria-label={t('footer.social.source')}
              title={t('footer.social.source')}
            >
              <CodeIcon size={18} />
            </Link>
            {support && (
              <a
                href={`mailto:${support}`}
                className={social}
                aria-label={t('footer.social.email')}
                title={t('footer.social.email')}
              >
                <MailIcon size={18} />
              </a>
            )}
            {config?.org_url && (
              <a
                href={config.org_url}
                target="_blank"
                rel="noopener noreferrer"
                className={social}
                aria-label={t('footer.social.website', { name: config.org_name ?? config.org_url })}
                title={t('footer.social.website', { name: config.org_name ?? config.org_url })}
              >
                <GlobeIcon size={18} />
              </a>
            )}
          </div>
        </div>
        <nav aria-label={t('footer.product')} className="space-y-3">
          <p className="text-sm font-semibold text-fg">{t('footer.product')}</p>
          <ul className="space-y-2">
            <li>
              <Link to="/demos" className={link}>
                {t('nav.demos')}
              </Link>
            </li>
            <li>
              <Link to="/about" className={link}>
                {t('nav.about')}
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-label={t('footer.support')} className="space-y-3">
          <p className="text-sm font-semibold text-fg">{t('footer.support')}</p>
          <ul className="space-y-2">
            <li>
              <Link to="/about#contact" className={link}>
                {t('footer.contact')}
              </Link>
            </li>
            {support && (
              <li>
                <a
                  href={`mailto:${support}?subject=${encodeURIComponent(t('footer.helpSubject'))}`}
                  className={link}
                >
                  {t('footer.help')}
                </a>
              </li>
            )}
            <li>
              <Link to="/guide" className={link}>
                {t('footer.guide')}
              </Link>
            </li>
            <li>
              <a href={config?.docs_url ?? '/docs'} className={link}>
                {t('footer.documentation')}
              </a>
            </li>
          </ul>
        </nav>
        <nav aria-label={t('footer.legal')} className="space-y-3">
          <p className="text-sm font-semibold text-fg">{t('footer.legal')}</p>
          <ul className="space-y-2">
            <li>
              <Link to="/privacy" className={link}>
                {t('nav.privacy')}
              </Link>
            </li>
            <li>
              <Link to="/terms" className={link}>
                {t('nav.terms')}
              </Link>
            </li>
            <li>
              {/* AGPL-3.0 §13: the source of the running version, one click from every page */}
              <a href={source.href} className={link} data-testid="source-link" {...source.anchor}>
                {/* inline, not flex: the row keeps the line height of the other links */}
                <CodeIcon size={14} className="me-1.5 inline-block align-[-2px]" />
                {t('footer.sourceCode')}
              </a>
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t border-border">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-5 text-sm text-muted sm:px-6">
          <p>
            © {formatNumber(COPYRIGHT_YEAR, { useGrouping: false })} {t('brand.name')}
            <Sep />
            {t('footer.rights')}
          </p>
          <div className="flex flex-wrap items-center gap-4">
            {support && (
              <a href={`mailto:${support}`} className="hover:text-fg" dir="ltr">
                {support}
              </a>
            )}
            <span dir="ltr">{APP_VERSION}</span>
            <StatusIndicator />
          </div>
        </div>
      </div>
    </footer>
  );
}
