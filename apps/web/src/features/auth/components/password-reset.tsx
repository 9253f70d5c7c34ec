import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { EmailField } from '../../../components/ui/field.tsx';
import { NewPasswordFields } from '../../../components/ui/new-password-fields.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useConfirmPasswordReset, useRequestPasswordReset } from '../api/auth-api.ts';
import { fieldErrorKey } from '../api/field-errors.ts';
import { passwordRules } from '../api/password-rules.ts';
import { PasswordChecklist } from './password-checklist.tsx';

export function ForgotPasswordForm() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const mutation = useRequestPasswordReset();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!z.email().safeParse(email.trim()).success) {
      setError(email.trim() ? t('register.errors.emailInvalid') : t('register.errors.emailRequired'));
      return;
    }
    setError(null);
    mutation.mutate({ email: email.trim() });
  };

  if (mutation.isSuccess) {
    return (
      <div className="space-y-5">
        <Alert tone="success">{t('auth.forgot.sent')}</Alert>
        <ButtonLink to="/auth" variant="secondary" className="w-full">
          {t('auth.forgot.back')}
        </ButtonLink>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <p className="text-sm text-muted">{t('auth.forgot.intro')}</p>
      {mutation.error && <Alert tone="danger">{mutation.error.message}</Alert>}
      <EmailField
        label={t('auth.fields.email')}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={error}
      />
      <Button type="submit" className="w-full" size="lg" loading={mutation.isPending}>
        {t('auth.forgot.submit')}
      </Button>
      <p className="text-center text-sm">
        <Link to="/auth" className="text-accent hover:underline">
          {t('auth.forgot.back')}
        </Link>
      </p>
    </form>
  );
}

export function ResetPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const rules = passwordRules(password, confirm, {});
  const mutation = useConfirmPasswordReset({
    onError: (err) => {
      if (err instanceof ApiError) {
        const fieldMessage = err.fieldErrors('new_password')[0];
        const key = fieldMessage ? fieldErrorKey('password', fieldMessage) : null;
        setError(key ? t(key) : (fieldMessage ?? err.message));
      } else setError(t('errors.unexpected'));
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!rules.length) return setError(t('register.errors.passwordTooShort'));
    if (!rules.notNumeric) return setError(t('register.errors.passwordNumeric'));
    if (!rules.matches) return setError(t('register.errors.passwordMismatch'));
    setError(null);
    mutation.mutate({ token, new_password: password, new_password_confirm: confirm });
  };

  if (mutation.isSuccess) {
    return (
      <div className="space-y-5">
        <Alert tone="success">{t('auth.reset.done')}</Alert>
        <ButtonLink to="/auth" className="w-full">
          {t('auth.login.submit')}
        </ButtonLink>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {error && <Alert tone="danger">{error}</Alert>}
      <NewPasswordFields
        password={password}
        confirm={confirm}
        onPasswordChange={setPassword}
        onConfirmChange={setConfirm}
      />
      <PasswordChecklist rules={rules} />
      <Button type="submit" className="w-full" size="lg" loading={mutation.isPending}>
        {t('auth.reset.submit')}
      </Button>
    </form>
  );
}
