import { useTranslation } from 'react-i18next';
import { LIMITS } from '@tazamun/contracts/limits';
import { formatNumber } from '../../../lib/format.ts';
import type { PasswordRuleState } from '../api/password-rules.ts';
import { CheckIcon, CloseIcon } from '../../../components/ui/icons.tsx';

export function PasswordChecklist({ rules }: { rules: PasswordRuleState }) {
  const { t } = useTranslation();
  const items: { ok: boolean; label: string; hint?: boolean; key: string }[] = [
    {
      key: 'length',
      ok: rules.length,
      label: t('register.rules.length', { min: formatNumber(LIMITS.passwordMinLength) }),
    },
    { key: 'numeric', ok: rules.notNumeric, label: t('register.rules.notNumeric') },
    { key: 'similar', ok: rules.notSimilar, label: t('register.rules.notSimilar'), hint: true },
    { key: 'match', ok: rules.matches, label: t('register.rules.match') },
  ];
  return (
    <ul className="grid gap-1.5 text-sm sm:grid-cols-2" aria-label={t('register.rules.title')}>
      {items.map((item) => (
        <li
          key={item.key}
          data-rule={item.key}
          data-ok={item.ok}
          className={`flex items-center gap-2 ${item.ok ? 'text-success' : item.hint ? 'text-warning' : 'text-muted'}`}
        >
          {item.ok ? <CheckIcon size={16} /> : <CloseIcon size={16} />}
          <span>{item.label}</span>
        </li>
      ))}
    </ul>
  );
}
