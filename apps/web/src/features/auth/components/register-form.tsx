import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Checkbox, EmailField, InputField, PasswordField } from '../../../components/ui/field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { WORDS, useFieldErrorText } from '../../../lib/form-errors.ts';
import { RegisterForm, useRegister } from '../api/auth-api.ts';
import type { RegisterFormInput, RegisterFormOutput } from '../api/auth-api.ts';
import { REGISTER_FIELDS, fieldErrorKey } from '../api/field-errors.ts';
import { passwordRules } from '../api/password-rules.ts';
import { PasswordChecklist } from './password-checklist.tsx';
import { useSignIn } from '../hooks/use-sign-in.ts';

const EMPTY: RegisterFormInput = {
  first_name: '',
  last_name: '',
  email: '',
  password: '',
  password_confirm: '',
  terms: false,
};

export function RegisterFormView() {
  const { t } = useTranslation();
  const signIn = useSignIn();
  const errorText = useFieldErrorText();
  // Checked on submit (the contracts' schema, RegisterForm); an error stays until its field changes.
  const form = useForm<RegisterFormInput, unknown, RegisterFormOutput>({
    resolver: zodResolver(RegisterForm),
    defaultValues: EMPTY,
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const [first_name, last_name, email, password, password_confirm] = useWatch({
    control: form.control,
    name: ['first_name', 'last_name', 'email', 'password', 'password_confirm'],
  });
  const rules = passwordRules(password, password_confirm, { first_name, last_name, email });

  const mutation = useRegister({
    onSuccess: (data) => signIn(data.tokens, data.user, true, data.waitlist),
    onError: (error) => {
      const formError = (message: string | null) =>
        message && form.setError('root.server', { type: WORDS, message });
      if (!(error instanceof ApiError)) return formError(t('register.errors.generic'));
      if (error.kind === 'network' || error.kind === 'timeout')
        return formError(error.kind === 'network' ? t('auth.errors.network') : t('auth.errors.timeout'));
      let mapped = 0;
      for (const field of REGISTER_FIELDS) {
        const message = error.fieldErrors(field)[0];
        if (!message) continue;
        const key = fieldErrorKey(field, message);
        form.setError(field, { type: WORDS, message: key ? t(key) : message });
        mapped += 1;
      }
      const nonField = error.body?.non_field_errors?.[0];
      formError(
        mapped > 0 ? (nonField ?? null) : (nonField ?? error.message ?? t('register.errors.generic')),
      );
    },
  });

  // Everything a field of this form takes from the form: its registration and its error, which goes as
  // soon as the field changes.
  const bind = (field: keyof RegisterFormInput) => ({
    ...form.register(field, { onChange: () => form.clearErrors(field) }),
    error: errorText(errors[field]),
  });

  const onSubmit = form.handleSubmit(({ terms: _accepted, ...request }) => mutation.mutate(request));

  return (
    <form
      onSubmit={(e) => {
        form.clearErrors('root.server');
        void onSubmit(e);
      }}
      noValidate
      className="space-y-5"
      aria-label={t('auth.register.title')}
    >
      {errors.root?.server && <Alert tone="danger">{errors.root.server.message}</Alert>}
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
        {...bind('terms')}
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
