import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ButtonLink } from '../components/ui/button.tsx';
import { toast } from '../stores/ui-store.ts';
import { Spinner } from '../components/ui/spinner.tsx';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="font-mono text-sm text-accent">404</p>
      <h1 className="mt-2 text-3xl font-semibold">{t('notFound.title')}</h1>
      <p className="mt-3 text-muted">{t('notFound.body')}</p>
      <ButtonLink to="/" className="mt-8">
        {t('notFound.home')}
      </ButtonLink>
    </section>
  );
}

/** Error boundary of every route: a navigation failure shows a toast and a way back. */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) return;
    shown.current = true;
    console.warn('route error', error);
    toast.error(t('errors.navigation'));
  }, [error, t]);
  const status = isRouteErrorResponse(error) ? error.status : null;
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      {status && <p className="font-mono text-sm text-accent">{status}</p>}
      <h1 className="mt-2 text-2xl font-semibold">{t('errors.navigation')}</h1>
      <ButtonLink to="/" className="mt-8">
        {t('notFound.home')}
      </ButtonLink>
    </section>
  );
}

/** While a screen's code arrives (a direct visit to a screen loaded on demand): the layout and a spinner. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="flex justify-center py-24 text-accent" data-testid="page-loading">
      <Spinner label={t('common.loading')} />
    </div>
  );
}
