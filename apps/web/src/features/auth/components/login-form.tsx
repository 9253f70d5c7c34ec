import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Checkbox, EmailField, PasswordField } from '../../../components/ui/field.tsx';
import { useFieldErrorText } from '../../../lib/form-errors.ts';
import { LoginForm, useLogin } from '../api/auth-api.ts';
import type { LoginFormInput, LoginFormOutput } from '../api/auth-api.ts';
import { loginErrorView } from '../api/login-errors.ts';
import { useSignIn } from '../hooks/use-sign-in.ts';

export function LoginFormView() {
  const { t } = useTranslation();
  const signIn = useSignIn();
  const errorText = useFieldErrorText();
  // checked on submit with the contracts' schema (LoginForm); the errors stay until the next submit
  const form = useForm<LoginFormInput, unknown, LoginFormOutput>({
    resolver: zodResolver(LoginForm),
    defaultValues: { email: '', password: '', remember_me: true },
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const mutation = useLogin({
    onSuccess: (data, request) => signIn(data.tokens, data.user, request.remember_me),
  });
  const errorView = mutation.error ? loginErrorView(mutation.error, t) : null;
  const onSubmit = form.handleSubmit((request) => mutation.mutate(request));

  return (
    <form
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      className="space-y-5"
      aria-label={t('auth.login.title')}
    >
      {errorView && (
        <Alert tone="danger">
          <p data-testid="login-error">{errorView.message}</p>
          {errorView.attempts && (
            <p className="mt-1 font-medium" data-testid="login-attempts">
              {errorView.attempts}
            </p>
          )}
          {errorView.locked && (
            <p className="mt-1 font-medium" data-testid="login-locked">
              {errorView.locked}
            </p>
          )}
          {errorView.maxReached && (
            <p className="mt-1 font-medium" data-testid="login-max">
              {errorView.maxReached}
            </p>
          )}
        </Alert>
      )}
      <EmailField
        label={t('auth.fields.email')}
        {...form.register('email')}
        error={errorText(errors.email)}
        required
      />
      <PasswordField
        label={t('auth.fields.password')}
        autoComplete="current-password"
        {...form.register('password')}
        error={errorText(errors.password)}
        required
      />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Checkbox label={t('auth.login.rememberMe')} {...form.register('remember_me')} />
        <Link to="/auth?view=forgot" className="text-sm font-medium text-accent hover:underline">
          {t('auth.login.forgot')}
        </Link>
      </div>
      <Button type="submit" className="w-full" size="lg" loading={mutation.isPending}>
        {t('auth.login.submit')}
      </Button>
    </form>
  );
}
