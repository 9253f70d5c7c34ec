import { useTranslation } from 'react-i18next';
import { Paragraphs, ProsePage, ProseSection } from './prose.tsx';

const SECTIONS = [
  'service',
  'use',
  'account',
  'content',
  'code',
  'models',
  'citation',
  'availability',
  'liability',
  'changes',
] as const;

export function TermsPage() {
  const { t } = useTranslation();
  return (
    <ProsePage title={t('terms.title')} updated={t('terms.updated')}>
      <Paragraphs text={t('terms.intro')} />
      {SECTIONS.map((s) => (
        <ProseSection key={s} id={s} title={t(`terms.${s}.title`)}>
          <Paragraphs text={t(`terms.${s}.body`)} />
        </ProseSection>
      ))}
    </ProsePage>
  );
}
