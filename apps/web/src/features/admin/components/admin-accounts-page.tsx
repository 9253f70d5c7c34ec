// Accounts for administrators (the API refuses anyone else): the waiting list first, each account with
// approve, reject (confirmed) and its daily quota. The same actions as `npm run admin -- approve |
// reject | set-quota`, without a shell on the server.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { APPROVAL_STATUSES } from '@tazamun/contracts/auth';
import type { AdminUser, ApprovalStatus } from '@tazamun/contracts/auth';
import { useUser } from '../../../lib/api/get-user.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, PageHeader } from '../../../components/ui/card.tsx';
import { confirmAction } from '../../../components/ui/confirm.tsx';
import { toast } from '../../../stores/ui-store.ts';
import { useApproveUser, useRejectUser, useSetDailyLimit } from '../api/admin-users-api.ts';
import { useAdminUsers } from '../api/get-admin-users.ts';

function QuotaForm({ account }: { account: AdminUser }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(String(account.quota.daily_limit));
  const n = Number(value);
  const valid = value.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= 100_000;
  const save = useSetDailyLimit(account.id, {
    onSuccess: (r) =>
      toast.success(
        t('adminAccounts.quotaSaved', { email: r.user.email, limit: formatNumber(r.user.quota.daily_limit) }),
      ),
    onError: (e) => toast.error(e.message),
  });
  const id = `quota-${account.id}`;
  return (
    <form
      className="flex items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) save.mutate(n);
      }}
    >
      <label htmlFor={id} className="sr-only">
        {t('adminAccounts.quotaOf', { email: account.email })}
      </label>
      <input
        id={id}
        type="number"
        min={0}
        max={100000}
        inputMode="numeric"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        aria-invalid={!valid}
        className="h-8 w-20 rounded-md border border-border bg-surface px-2 tabular-nums aria-[invalid=true]:border-danger"
      />
      <Button
        size="sm"
        variant="secondary"
        type="submit"
        disabled={!valid || n === account.quota.daily_limit}
        loading={save.isPending}
      >
        {t('adminAccounts.setQuota')}
      </Button>
    </form>
  );
}

export function AdminAccountsPage() {
  const { t } = useTranslation();
  const { user } = useUser();
  const isAdmin = user?.role === 'admin';
  const [status, setStatus] = useState<ApprovalStatus>('pending');
  const accounts = useAdminUsers(status, isAdmin);
  const approve = useApproveUser({
    onSuccess: (r) => toast.success(t('adminAccounts.approved', { email: r.user.email })),
    onError: (e) => toast.error(e.message),
  });
  const reject = useRejectUser({
    onSuccess: (r) => toast.success(t('adminAccounts.rejected', { email: r.user.email })),
    onError: (e) => toast.error(e.message),
  });

  if (!user) return null;
  if (!isAdmin)
    return (
      <div className="mx-auto max-w-xl px-4 py-16">
        <Alert tone="danger">{t('adminJobs.adminOnly')}</Alert>
      </div>
    );
  const rows = accounts.data?.users ?? [];
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <PageHeader title={t('adminAccounts.title')} subtitle={t('adminAccounts.subtitle')} />
      <div className="flex flex-wrap gap-2" role="group" aria-label={t('adminAccounts.filter')}>
        {APPROVAL_STATUSES.map((s) => (
          <Button
            key={s}
            size="sm"
            variant={s === status ? 'primary' : 'secondary'}
            aria-pressed={s === status}
            onClick={() => setStatus(s)}
          >
            {t(`adminAccounts.status.${s}`)}
          </Button>
        ))}
      </div>
      {accounts.isError && (
        <div className="mt-4">
          <Alert tone="danger">{accounts.error.message}</Alert>
        </div>
      )}
      <Card className="mt-4 min-w-0 p-0">
        {accounts.isPending ? (
          <p className="p-6 text-muted">{t('common.loading')}</p>
        ) : rows.length === 0 ? (
          <p className="p-6 text-muted">{t(`adminAccounts.empty.${status}`)}</p>
        ) : (
          <ul className="divide-y divide-border" data-testid="admin-accounts">
            {rows.map((a) => (
              <li
                key={a.id}
                className="flex flex-wrap items-center gap-x-6 gap-y-3 p-4"
                data-account={a.email}
              >
                <div className="min-w-0 flex-1 basis-56">
                  <p className="font-medium break-words">
                    <bdi>{a.name}</bdi>
                  </p>
                  <p className="text-sm break-all text-muted">
                    <bdi dir="ltr">{a.email}</bdi>
                  </p>
                  <p className="text-xs text-muted">
                    {t('adminAccounts.registered', { date: formatDateTime(a.date_joined) })}
                    {a.role === 'admin' && `${t('common.separator')}${t('adminAccounts.admin')}`}
                  </p>
                </div>
                <div className="text-sm">
                  <p className="text-xs text-muted">{t('adminAccounts.quota')}</p>
                  <QuotaForm key={a.quota.daily_limit} account={a} />
                </div>
                <div className="flex flex-wrap gap-2">
                  {a.status !== 'approved' && (
                    <Button
                      size="sm"
                      onClick={() => approve.mutate(a.id)}
                      loading={approve.isPending && approve.variables === a.id}
                    >
                      {t('adminAccounts.approve')}
                    </Button>
                  )}
                  {a.status !== 'rejected' && a.role !== 'admin' && (
                    <Button
                      size="sm"
                      variant="danger"
                      onClick={() =>
                        confirmAction({
                          title: t('adminAccounts.rejectTitle'),
                          body: t('adminAccounts.rejectBody', { email: a.email }),
                          action: t('adminAccounts.reject'),
                          onConfirm: () => reject.mutateAsync(a.id),
                        })
                      }
                    >
                      {t('adminAccounts.reject')}
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
