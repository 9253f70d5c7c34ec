import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { useUser } from '../../../lib/api/get-user.ts';
import { Card } from '../../../components/ui/card.tsx';
import { CheckIcon } from '../../../components/ui/icons.tsx';
import { LoginFormView } from './login-form.tsx';
import { RegisterFormView } from './register-form.tsx';
import { ForgotPasswordForm, ResetPasswordForm } from './password-reset.tsx';

type View = 'login' | 'register' | 'forgot' | 'reset';

function viewOf(params: URLSearchParams): View {
  const view = params.get('view');
  if (view === 'register' || view === 'forgot') return view;
  if (view === 'reset' || params.has('token')) return 'reset';
  return 'login';
}

export function AuthPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { user } = useUser();
  const view = viewOf(params);
  if (user) return <Navigate to={user.is_approved ? '/dashboard' : '/waitlist'} replace />;

  const titles: Record<View, string> = {
    login: t('auth.login.title'),
    register: t('auth.register.title'),
    forgot: t('auth.forgot.title'),
    reset: t('auth.reset.title'),
  };
  const tab = (target: 'login' | 'register') =>
    `flex-1 rounded-lg px-4 py-2 text-center text-sm font-medium transition-colors ${
      view === target ? 'bg-surface text-fg shadow-sm' : 'text-muted hover:text-fg'
    }`;

  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-10 sm:px-6 lg:grid-cols-[1fr_1.1fr] lg:py-16">
      <aside className="hidden flex-col justify-center lg:flex">
        <h1 className="text-3xl font-semibold tracking-tight">{t('auth.aside.title')}</h1>
        <p className="mt-3 text-muted">{t('auth.aside.body')}</p>
        <ul className="mt-8 space-y-3">
          {(['one', 'two', 'three'] as const).map((k) => (
            <li key={k} className="flex items-start gap-3 text-sm">
              <span className="mt-0.5 rounded-full bg-accent-soft p-1 text-accent">
                <CheckIcon size={14} />
              </span>
              <span>{t(`auth.aside.points.${k}`)}</span>
            </li>
          ))}
        </ul>
      </aside>
      <Card className="w-full max-w-xl justify-self-center p-6 sm:p-8">
        {(view === 'login' || view === 'register') && (
          <div className="mb-6 flex gap-1 rounded-xl bg-surface-2 p-1" role="tablist">
            <Link to="/auth" role="tab" aria-selected={view === 'login'} className={tab('login')} replace>
              {t('nav.login')}
            </Link>
            <Link
              to="/auth?view=register"
              role="tab"
              aria-selected={view === 'register'}
              className={tab('register')}
              replace
            >
              {t('nav.register')}
            </Link>
          </div>
        )}
        <h2 className="mb-6 text-2xl font-semibold">{titles[view]}</h2>
        {view === 'login' && <LoginFormView />}
        {view === 'register' && <RegisterFormView />}
        {view === 'forgot' && <ForgotPasswordForm />}
        {view === 'reset' &&
          (params.get('token') ? (
            <ResetPasswordForm token={params.get('token') ?? ''} />
          ) : (
            <p className="text-sm text-danger">{t('auth.reset.missingToken')}</p>
          ))}
      </Card>
    </div>
  );
}
