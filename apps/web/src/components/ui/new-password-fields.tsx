import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from './field.tsx';

/** "New password" and its confirmation, as the reset link and the profile's password change ask them. */
export function NewPasswordFields({
  password,
  confirm,
  onPasswordChange,
  onConfirmChange,
  hint,
}: {
  password: string;
  confirm: string;
  onPasswordChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
  hint?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField
        label={t('auth.reset.newPassword')}
        autoComplete="new-password"
        value={password}
        onChange={(e) => onPasswordChange(e.target.value)}
        hint={hint}
      />
      <PasswordField
        label={t('auth.fields.passwordConfirm')}
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => onConfirmChange(e.target.value)}
      />
    </>
  );
}
