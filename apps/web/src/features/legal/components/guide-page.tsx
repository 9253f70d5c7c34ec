// The guide: how to use the platform, in the interface language. The API reference at /docs is
// generated from the routes' schemas and stays in English; the guide says so and links to it.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePublicConfig } from '../../../lib/api/get-public-config.ts';
import { Paragraphs, ProsePage, ProseSection } from './prose.tsx';

const SECTIONS = ['align', 'results', 'correct', 'lexicon', 'exports', 'projects'] as const;

export function GuidePage() {
  const { t, i18n } = useTranslation();
  const config = usePublicConfig();
  return (
    <ProsePage title={t('guide.title')}>
      <Paragraphs text={t('guide.intro')} />
      {SECTIONS.map((s) => (
        <ProseSection key={s} id={s} title={t(`guide.${s}.title`)}>
          <Paragraphs text={t(`guide.${s}.body`)} />
        </ProseSection>
      ))}
      <ProseSection id="api" title={t('guide.api.title')}>
        <Paragraphs text={t('guide.api.body')} />
        <p className="mt-3">
          <a
            href={config.data?.docs_url ?? '/docs'}
            className="font-medium text-accent hover:underline"
            data-testid="api-reference-link"
          >
            {t('guide.api.link')}
          </a>
          {i18n.language !== 'en' && (
            <span className="ms-2 text-sm text-muted">({t('guide.api.english')})</span>
          )}
        </p>
        <p className="mt-3 text-sm text-muted">
          <Link to="/lexicon" className="text-accent hover:underline">
            {t('nav.lexicon')}
          </Link>
        </p>
      </ProseSection>
    </ProsePage>
  );
}
