import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { APP_VERSION, COPYRIGHT_YEAR } from '@tazamun/contracts/limits';
import { usePublicConfig } from '../../../lib/api/get-public-config.ts';
import { useSourceLink } from '../../../lib/source-link.ts';
import { Button } from '../../../components/ui/button.tsx';
import { CheckIcon, CodeIcon, CopyIcon, MailIcon } from '../../../components/ui/icons.tsx';
import { Paragraphs, ProsePage, ProseSection } from './prose.tsx';

function CopyBlock({
  label,
  text,
  testId,
  mono = true,
}: {
  label: string;
  text: string;
  testId: string;
  mono?: boolean;
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="mt-4 rounded-xl border border-border bg-surface">
      <div className="flex items-center justify-between border-b border-border px-4 py-2">
        <span className="text-sm font-medium">{label}</span>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => void copy()}
          aria-label={`${t('about.copy')} — ${label}`}
        >
          {copied ? <CheckIcon size={16} /> : <CopyIcon size={16} />}
          {copied ? t('about.copied') : t('about.copy')}
        </Button>
      </div>
      <pre
        dir="ltr"
        className={`overflow-x-auto p-4 text-sm whitespace-pre-wrap text-fg ${mono ? 'font-mono' : 'font-sans text-start'}`}
        data-testid={testId}
      >
        {text}
      </pre>
    </div>
  );
}

export function AboutPage() {
  const { t } = useTranslation();
  const config = usePublicConfig().data;
  const source = useSourceLink();
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const version = APP_VERSION.replace(/^v/, '');
  const author = config?.org_name ?? 'Tazamun contributors';
  const citation = `${author} (${COPYRIGHT_YEAR}). Tazamun (تزامن): a research platform for audio–text alignment (version ${version}) [Software]. ${origin}/`;
  const bibtex = [
    `@software{tazamun_${COPYRIGHT_YEAR},`,
    `  author  = {{${author}}},`,
    `  title   = {Tazamun: a research platform for audio--text alignment},`,
    `  year    = {${COPYRIGHT_YEAR}},`,
    `  version = {${version}},`,
    `  license = {AGPL-3.0-or-later},`,
    `  url     = {${origin}/}`,
    `}`,
  ].join('\n');
  return (
    <ProsePage title={t('about.title')}>
      <ProseSection title={t('about.mission.title')}>
        <Paragraphs text={t('about.mission.body')} />
      </ProseSection>
      <ProseSection title={t('about.how.title')}>
        <Paragraphs text={t('about.how.body')} />
      </ProseSection>
      <ProseSection id="cite" title={t('about.cite.title')}>
        <Paragraphs text={t('about.cite.body')} />
        <CopyBlock label={t('about.cite.text')} text={citation} testId="citation" mono={false} />
        <CopyBlock label="BibTeX" text={bibtex} testId="bibtex" />
      </ProseSection>
      <ProseSection id="source" title={t('about.source.title')}>
        <Paragraphs text={t('about.source.body')} />
        <a
          href={source.href}
          data-testid="about-source-link"
          className="mt-4 inline-flex items-center gap-2 rounded-lg border border-border bg-surface px-4 py-2 text-sm font-medium hover:border-accent/60"
          {...source.anchor}
        >
          <CodeIcon size={18} />
          {t(source.external ? 'about.source.repository' : 'about.source.download')}
        </a>
        {source.external && (
          <p className="mt-2 text-sm text-muted" dir="ltr">
            {source.href}
          </p>
        )}
      </ProseSection>
      <ProseSection id="contact" title={t('about.contact.title')}>
        <Paragraphs text={t('about.contact.body')} />
        {config?.support_email && (
          <a
            href={`mailto:${config.support_email}`}
            className="mt-4 inline-flex items-center gap-2 rounded-lg border border-border bg-surface px-4 py-2 text-sm font-medium hover:border-accent/60"
          >
            <MailIcon size={18} />
            <span dir="ltr">{config.support_email}</span>
          </a>
        )}
        {config?.org_url && (
          <p className="mt-3 text-sm text-muted">
            {t('about.contact.org')}{' '}
            <a
              href={config.org_url}
              target="_blank"
              rel="noopener noreferrer"
              className="text-accent hover:underline"
            >
              {config.org_name}
            </a>
          </p>
        )}
      </ProseSection>
    </ProsePage>
  );
}
