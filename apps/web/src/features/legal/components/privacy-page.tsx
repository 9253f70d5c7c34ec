import { useTranslation } from 'react-i18next';
import { usePublicConfig } from '../../../lib/api/get-public-config.ts';
import { Paragraphs, ProsePage, ProseSection } from './prose.tsx';

const SECTIONS = [
  'controller',
  'account',
  'uploads',
  'technical',
  'purposes',
  'retention',
  'sharing',
  'rights',
  'security',
  'contact',
] as const;

export function PrivacyPage() {
  const { t } = useTranslation();
  const config = usePublicConfig().data;
  return (
    <ProsePage title={t('privacy.title')} updated={t('privacy.updated')}>
      <Paragraphs text={t('privacy.intro')} />
      {SECTIONS.map((s) => (
        <ProseSection key={s} id={s} title={t(`privacy.${s}.title`)}>
          <Paragraphs
            text={t(`privacy.${s}.body`, {
              org: config?.org_name ?? t('brand.name'),
              email: config?.support_email ?? '—',
            })}
          />
        </ProseSection>
      ))}
    </ProsePage>
  );
}
