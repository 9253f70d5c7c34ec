import { useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Checkbox, EmailField, InputField, PasswordField } from '../../../components/ui/field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { register } from '../api/auth-api.ts';
import { REGISTER_FIELDS, fieldErrorKey } from '../api/field-errors.ts';
import type { RegisterField } from '../api/field-errors.ts';
import { passwordRules } from '../api/password-rules.ts';
import { PasswordChecklist } from './password-checklist.tsx';
import { useSignIn } from '../hooks/use-sign-in.ts';

// Letters (any script), spaces, apostrophes, hyphens and dots: what personal names are made of.
const NAME = /^[\p{L}\p{M}][\p{L}\p{M}\s'’.-]*$/u;

type Errors = Partial<Record<RegisterField | 'terms', string>>;

export function RegisterFormView() {
  const { t } = useTranslation();
  const signIn = useSignIn();
  const [form, setForm] = useState({
    first_name: '',
    last_name: '',
    email: '',
    password: '',
    password_confirm: '',
  });
  const [accepted, setAccepted] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const rules = passwordRules(form.password, form.password_confirm, form);

  const mutation = useMutation({
    mutationFn: register,
    onSuccess: (data) => signIn(data.tokens, data.user, true, data.waitlist),
    onError: (error) => {
      if (!(error instanceof ApiError)) {
        setFormError(t('register.errors.generic'));
        return;
      }
      if (error.kind === 'network' || error.kind === 'timeout') {
        setFormError(error.kind === 'network' ? t('auth.errors.network') : t('auth.errors.timeout'));
        return;
      }
      const mapped: Errors = {};
      for (const field of REGISTER_FIELDS) {
        const message = error.fieldErrors(field)[0];
        if (!message) continue;
        const key = fieldErrorKey(field, message);
        mapped[field] = key ? t(key) : message;
      }
      setErrors(mapped);
      const nonField = error.body?.non_field_errors?.[0];
      setFormError(
        Object.keys(mapped).length > 0
          ? (nonField ?? null)
          : (nonField ?? error.message ?? t('register.errors.generic')),
      );
    },
  });

  // An error stays until its field changes: fixing a field clears what was said about it.
  const clearError = (field: RegisterField | 'terms') =>
    setErrors((prev) => {
      if (!(field in prev)) return prev;
      const next = { ...prev };
      delete next[field];
      return next;
    });

  // Everything a field of this form takes from the form's state: its name, value, setter and error.
  const bind = (field: RegisterField) => ({
    name: field,
    value: form[field],
    onChange: (e: { target: { value: string } }) => {
      setForm((f) => ({ ...f, [field]: e.target.value }));
      clearError(field);
    },
    error: errors[field],
  });

  const validate = (): Errors => {
    const next: Errors = {};
    if (!form.first_name.trim()) next.first_name = t('register.errors.firstNameRequired');
    else if (!NAME.test(form.first_name.trim())) next.first_name = t('register.errors.nameInvalid');
    if (!form.last_name.trim()) next.last_name = t('register.errors.lastNameRequired');
    else if (!NAME.test(form.last_name.trim())) next.last_name = t('register.errors.nameInvalid');
    if (!form.email.trim()) next.email = t('register.errors.emailRequired');
    else if (!z.email().safeParse(form.email.trim()).success) next.email = t('register.errors.emailInvalid');
    if (!form.password) next.password = t('register.errors.passwordRequired');
    else if (!rules.length) next.password = t('register.errors.passwordTooShort');
    else if (!rules.notNumeric) next.password = t('register.errors.passwordNumeric');
    if (!form.password_confirm) next.password_confirm = t('register.errors.confirmRequired');
    else if (!rules.matches) next.password_confirm = t('register.errors.passwordMismatch');
    if (!accepted) next.terms = t('register.errors.termsRequired');
    return next;
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const next = validate();
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    mutation.mutate({
      first_name: form.first_name.trim(),
      last_name: form.last_name.trim(),
      email: form.email.trim(),
      password: form.password,
      password_confirm: form.password_confirm,
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label={t('auth.register.title')}>
      {formError && <Alert tone="danger">{formError}</Alert>}
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          label={t('auth.fields.firstName')}
          autoComplete="given-name"
          dir="auto"
          {...bind('first_name')}
        />
        <InputField
          label={t('auth.fields.lastName')}
          autoComplete="family-name"
          dir="auto"
          {...bind('last_name')}
        />
      </div>
      <EmailField label={t('auth.fields.email')} {...bind('email')} />
      <PasswordField label={t('auth.fields.password')} autoComplete="new-password" {...bind('password')} />
      <PasswordField
        label={t('auth.fields.passwordConfirm')}
        autoComplete="new-password"
        {...bind('password_confirm')}
      />
      <PasswordChecklist rules={rules} />
      <Checkbox
        name="terms"
        checked={accepted}
        onChange={(e) => {
          setAccepted(e.target.checked);
          clearError('terms');
        }}
        error={errors.terms}
        label={
          <Trans
            i18nKey="register.acceptTerms"
            components={{
              terms: <Link to="/terms" target="_blank" className="font-medium text-accent hover:underline" />,
              privacy: (
                <Link to="/privacy" target="_blank" className="font-medium text-accent hover:underline" />
              ),
            }}
          />
        }
      />
      <Button type="submit" className="w-full" size="lg" loading={mutation.isPending}>
        {t('auth.register.submit')}
      </Button>
    </form>
  );
}
