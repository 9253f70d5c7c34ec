// Route guards of spec section 2: login, then approval, then (for the upload studio) remaining quota.
import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { hasQuotaLeft, isLeaving } from '../lib/auth.ts';
import { useUser } from '../lib/api/get-user.ts';
import { Spinner } from '../components/ui/spinner.tsx';
import { toast } from '../stores/ui-store.ts';

function PageSpinner() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-[50vh] items-center justify-center text-accent">
      <Spinner size={28} label={t('common.loading')} />
    </div>
  );
}

/** Anonymous visitors go to /auth, remembering where they were heading. */
export function RequireAuth() {
  const { hasToken, user, isLoading } = useUser();
  const location = useLocation();
  if (!hasToken) {
    if (isLeaving(location.pathname)) return <PageSpinner />;
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/auth?next=${encodeURIComponent(next)}`} replace />;
  }
  if (isLoading || !user) return <PageSpinner />;
  return <Outlet />;
}

/** Signed-in users whose account is not approved yet only see the waiting list. */
export function RequireApproval() {
  const { user } = useUser();
  if (!user) return <PageSpinner />;
  if (!user.is_approved) return <Navigate to="/waitlist" replace />;
  return <Outlet />;
}

function RedirectWithToast({ to, message }: { to: string; message: string }) {
  const navigate = useNavigate();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    toast.error(message);
    void navigate(to, { replace: true });
  }, [navigate, to, message]);
  return null;
}

/** The upload studio needs a unit of daily quota left. */
export function RequireQuota() {
  const { t } = useTranslation();
  const { user } = useUser();
  if (!user) return <PageSpinner />;
  if (!hasQuotaLeft(user))
    return <RedirectWithToast to="/dashboard" message={t('errors.quotaRouteExhausted')} />;
  return <Outlet />;
}
