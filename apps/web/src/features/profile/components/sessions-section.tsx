import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, CardTitle } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { confirmAction } from '../../../components/ui/confirm.tsx';
import { toast } from '../../../stores/ui-store.ts';
import { useRevokeOtherSessions, useRevokeSession } from '../api/profile-api.ts';
import { useSessions } from '../api/get-sessions.ts';
import { Sep } from '../../../components/ui/separator.tsx';

export function SessionsSection() {
  const { t } = useTranslation();
  const sessions = useSessions();
  const revoke = useRevokeSession({
    onSuccess: () => toast.success(t('profile.sessions.revoked')),
    onError: (e) => toast.error(e.message),
  });
  const revokeOthers = useRevokeOtherSessions({
    onSuccess: (r) => toast.success(t('profile.sessions.revokedOthers', { count: r.revoked })),
    onError: (e) => toast.error(e.message),
  });
  const list = sessions.data?.sessions ?? [];
  return (
    <Card>
      <CardTitle
        action={
          list.length > 1 && (
            <Button
              size="sm"
              variant="secondary"
              loading={revokeOthers.isPending}
              onClick={() =>
                confirmAction({
                  title: t('profile.sessions.revokeOthers'),
                  body: t('profile.sessions.revokeOthersBody'),
                  action: t('profile.sessions.revokeOthers'),
                  onConfirm: () => revokeOthers.mutateAsync(),
                })
              }
            >
              {t('profile.sessions.revokeOthers')}
            </Button>
          )
        }
      >
        {t('profile.sessions.title')}
      </CardTitle>
      {sessions.isPending && <Spinner label={t('common.loading')} />}
      {sessions.isError && <Alert tone="danger">{sessions.error.message}</Alert>}
      <ul className="divide-y divide-border" data-testid="sessions">
        {list.map((s) => (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div className="min-w-0">
              <p className="font-medium">
                <span dir="ltr">{s.device}</span>
                {s.current && (
                  <span className="ms-2 rounded-full bg-accent-soft px-2 py-0.5 text-xs font-medium text-accent">
                    {t('profile.sessions.current')}
                  </span>
                )}
              </p>
              <p className="text-sm text-muted">
                {t('profile.sessions.lastUsed', { date: formatDateTime(s.last_used_at) })}
                {s.ip && (
                  <>
                    <Sep />
                    <span dir="ltr">{s.ip}</span>
                  </>
                )}
              </p>
            </div>
            {!s.current && (
              <Button
                size="sm"
                variant="ghost"
                className="text-danger"
                loading={revoke.isPending && revoke.variables === s.id}
                onClick={() => revoke.mutate(s.id)}
              >
                {t('profile.sessions.revoke')}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
