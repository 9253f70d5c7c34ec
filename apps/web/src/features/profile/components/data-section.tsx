import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DELETE_CONFIRMATION_WORDS } from '@tazamun/contracts/auth';
import { currentLanguage } from '../../../lib/i18n.ts';
import { useSignOutAndLeave } from '../../../lib/auth.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, CardTitle } from '../../../components/ui/card.tsx';
import { InputField, PasswordField } from '../../../components/ui/field.tsx';
import { toast } from '../../../stores/ui-store.ts';
import { useDeleteAccount, useDownloadExport } from '../api/profile-api.ts';

export function ExportSection() {
  const { t } = useTranslation();
  const mutation = useDownloadExport({
    onSuccess: (blob) => {
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `tazamun-export-${new Date().toISOString().slice(0, 10)}.zip`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast.success(t('profile.export.done'));
    },
    onError: (e) => toast.error(e.message),
  });
  return (
    <Card>
      <CardTitle>{t('profile.export.title')}</CardTitle>
      <p className="mb-4 text-sm text-muted">{t('profile.export.body')}</p>
      <Button variant="secondary" loading={mutation.isPending} onClick={() => mutation.mutate()}>
        {t('profile.export.download')}
      </Button>
    </Card>
  );
}

export function DangerZone() {
  const { t } = useTranslation();
  const signOut = useSignOutAndLeave();
  const word = DELETE_CONFIRMATION_WORDS[currentLanguage()];
  const [password, setPassword] = useState('');
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const mutation = useDeleteAccount({
    onSuccess: () => {
      void signOut();
      toast.success(t('profile.danger.deleted'));
    },
    onError: (e) =>
      setError(
        e instanceof ApiError && e.fieldErrors('password').length > 0
          ? t('profile.password.wrongCurrent')
          : e.message,
      ),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim() !== word) return setError(t('profile.danger.wordMismatch', { word }));
    setError(null);
    mutation.mutate({ password, confirmation: typed.trim() });
  };
  return (
    <Card className="border-danger/50">
      <CardTitle>{t('profile.danger.title')}</CardTitle>
      <p className="mb-4 text-sm text-muted">{t('profile.danger.body')}</p>
      <form onSubmit={onSubmit} className="grid gap-4 sm:max-w-md" noValidate>
        {error && <Alert tone="danger">{error}</Alert>}
        <PasswordField
          label={t('profile.password.current')}
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <InputField
          label={t('profile.danger.typeWord', { word })}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          dir="auto"
          autoComplete="off"
        />
        <div>
          <Button
            type="submit"
            variant="danger"
            disabled={typed.trim() !== word || !password}
            loading={mutation.isPending}
          >
            {t('profile.danger.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
