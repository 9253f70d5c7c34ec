import { useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Checkbox, EmailField, PasswordField } from '../../../components/ui/field.tsx';
import { login } from '../api/auth-api.ts';
import { loginErrorView } from '../api/login-errors.ts';
import { useSignIn } from '../hooks/use-sign-in.ts';

const LoginForm = z.object({ email: z.email(), password: z.string().min(1) });

export function LoginFormView() {
  const { t } = useTranslation();
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(true);
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const mutation = useMutation({
    mutationFn: login,
    onSuccess: (data) => signIn(data.tokens, data.user, rememberMe),
  });
  const errorView = mutation.error ? loginErrorView(mutation.error, t) : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = LoginForm.safeParse({ email: email.trim(), password });
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => i.path[0]);
      setFieldErrors({
        email: issues.includes('email')
          ? email.trim()
            ? t('register.errors.emailInvalid')
            : t('register.errors.emailRequired')
          : undefined,
        password: issues.includes('password') ? t('register.errors.passwordRequired') : undefined,
      });
      return;
    }
    setFieldErrors({});
    mutation.mutate({ ...parsed.data, remember_me: rememberMe });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label={t('auth.login.title')}>
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
        name="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={fieldErrors.email}
        required
      />
      <PasswordField
        label={t('auth.fields.password')}
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={fieldErrors.password}
        required
      />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Checkbox
          label={t('auth.login.rememberMe')}
          checked={rememberMe}
          onChange={(e) => setRememberMe(e.target.checked)}
        />
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
