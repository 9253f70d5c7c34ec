import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, CardTitle } from '../../../components/ui/card.tsx';
import { InputField, SelectField } from '../../../components/ui/field.tsx';
import { confirmAction } from '../../../components/ui/confirm.tsx';
import { toast } from '../../../stores/ui-store.ts';
import { useCreateApiToken, useRevokeApiToken } from '../api/api-tokens-api.ts';
import { useApiTokens } from '../api/get-api-tokens.ts';
import { Sep } from '../../../components/ui/separator.tsx';

const LIFETIMES = ['30', '90', '365', ''] as const;

export function ApiTokensSection() {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [days, setDays] = useState<(typeof LIFETIMES)[number]>('90');
  // the secret is shown once, right after creation, and forgotten when the page goes
  const [secret, setSecret] = useState<string | null>(null);
  const tokens = useApiTokens();
  const create = useCreateApiToken({
    onSuccess: (created) => {
      setSecret(created.token);
      setName('');
    },
    onError: (e) => toast.error(e.message),
  });
  const revoke = useRevokeApiToken({
    onSuccess: () => toast.success(t('profile.tokens.revoked')),
    onError: (e) => toast.error(e.message),
  });
  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    create.mutate({ name: name.trim(), ...(days ? { expires_in_days: Number(days) } : {}) });
  };
  const list = tokens.data?.tokens ?? [];
  return (
    <Card>
      <CardTitle>{t('profile.tokens.title')}</CardTitle>
      <p className="mb-4 text-sm text-muted">{t('profile.tokens.body')}</p>
      {secret && (
        <Alert tone="warning">
          <p className="font-medium">{t('profile.tokens.once')}</p>
          <code
            className="mt-2 block break-all rounded bg-surface-2 p-2 text-xs"
            dir="ltr"
            data-testid="new-token"
          >
            {secret}
          </code>
          <Button
            size="sm"
            variant="secondary"
            className="mt-2"
            onClick={() =>
              void navigator.clipboard.writeText(secret).then(
                () => toast.success(t('profile.tokens.copied')),
                () => toast.error(t('share.copyFailed')),
              )
            }
          >
            {t('profile.tokens.copy')}
          </Button>
        </Alert>
      )}
      <form onSubmit={onCreate} className="mt-4 flex flex-wrap items-end gap-3">
        <InputField
          label={t('profile.tokens.name')}
          value={name}
          maxLength={80}
          dir="auto"
          onChange={(e) => setName(e.target.value)}
        />
        <SelectField
          label={t('profile.tokens.lifetime')}
          value={days}
          onChange={(e) => setDays(e.target.value as (typeof LIFETIMES)[number])}
        >
          {LIFETIMES.map((d) => (
            <option key={d} value={d}>
              {d ? t('profile.tokens.days', { count: d }) : t('profile.tokens.never')}
            </option>
          ))}
        </SelectField>
        <Button type="submit" size="sm" loading={create.isPending} disabled={!name.trim()}>
          {t('profile.tokens.create')}
        </Button>
      </form>
      {tokens.isError && <Alert tone="danger">{tokens.error.message}</Alert>}
      <ul className="mt-4 divide-y divide-border" data-testid="api-tokens">
        {list.map((tok) => (
          <li key={tok.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div className="min-w-0">
              <p className="font-medium" dir="auto">
                {tok.name}{' '}
                <code className="text-xs text-muted" dir="ltr">
                  {tok.prefix}…
                </code>
              </p>
              <p className="text-sm text-muted">
                {tok.expires_at
                  ? t('profile.tokens.expires', { date: formatDateTime(tok.expires_at) })
                  : t('profile.tokens.never')}
                <Sep />
                {tok.last_used_at
                  ? t('profile.tokens.lastUsed', { date: formatDateTime(tok.last_used_at) })
                  : t('profile.tokens.unused')}
              </p>
            </div>
            <Button
              size="sm"
              variant="ghost"
              className="text-danger"
              onClick={() =>
                confirmAction({
                  title: t('profile.tokens.revokeTitle'),
                  body: t('profile.tokens.revokeBody', { name: tok.name }),
                  action: t('profile.tokens.revoke'),
                  onConfirm: () => revoke.mutateAsync(tok.id),
                })
              }
            >
              {t('profile.tokens.revoke')}
            </Button>
          </li>
        ))}
      </ul>
    </Card>
  );
}
