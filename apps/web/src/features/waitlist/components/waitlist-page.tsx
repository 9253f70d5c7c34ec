import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSignOutAndLeave } from '../../../lib/auth.ts';
import { useUser } from '../../../lib/api/get-user.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card } from '../../../components/ui/card.tsx';
import { ShieldIcon } from '../../../components/ui/icons.tsx';
import { toast } from '../../../stores/ui-store.ts';

const REDIRECT_DELAY_MS = 1500;

export function WaitlistPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signOut = useSignOutAndLeave();
  const { user, refetch } = useUser();
  const [checking, setChecking] = useState(false);
  const [stillPending, setStillPending] = useState(false);
  const approved = user?.is_approved === true;

  useEffect(() => {
    if (!approved) return;
    const timer = setTimeout(() => navigate('/dashboard', { replace: true }), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [approved, navigate]);

  const checkStatus = async () => {
    setChecking(true);
    setStillPending(false);
    const result = await refetch();
    setChecking(false);
    if (result.error) toast.error(result.error.message);
    else if (result.data && !result.data.is_approved) setStillPending(true);
  };

  if (!user) return null;
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <Card className="p-8 text-center">
        <div className="mx-auto mb-4 flex size-14 items-center justify-center rounded-full bg-accent-soft text-accent">
          <ShieldIcon size={28} />
        </div>
        <h1 className="text-2xl font-semibold">{t('waitlist.title')}</h1>
        <p className="mt-2 text-muted">{t('waitlist.body')}</p>
        <dl className="mt-6 grid gap-3 rounded-xl bg-surface-2 p-4 text-start text-sm sm:grid-cols-2">
          <div>
            <dt className="text-muted">{t('auth.fields.email')}</dt>
            <dd className="font-medium" dir="ltr" data-testid="waitlist-email">
              {user.email}
            </dd>
          </div>
          <div>
            <dt className="text-muted">{t('waitlist.status')}</dt>
            <dd className="font-medium" data-testid="waitlist-status">
              {approved ? t('waitlist.approvedStatus') : t('waitlist.pending')}
            </dd>
          </div>
        </dl>
        <div className="mt-6 space-y-3">
          {approved && <Alert tone="success">{t('waitlist.approved')}</Alert>}
          {stillPending && <Alert tone="info">{t('waitlist.stillPending')}</Alert>}
        </div>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Button onClick={() => void checkStatus()} loading={checking} disabled={approved}>
            {t('waitlist.check')}
          </Button>
          <Button variant="secondary" onClick={() => void signOut()}>
            {t('nav.logout')}
          </Button>
        </div>
      </Card>
    </div>
  );
}
