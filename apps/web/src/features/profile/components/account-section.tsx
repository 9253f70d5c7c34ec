import { useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '@tazamun/contracts/auth';
import { LIMITS } from '@tazamun/contracts/limits';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { ApiError, clientErrorMessage } from '../../../lib/api-client.ts';
import { formatBytes, formatDate } from '../../../lib/format.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, CardTitle } from '../../../components/ui/card.tsx';
import { InputField, PasswordField } from '../../../components/ui/field.tsx';
import { NewPasswordFields } from '../../../components/ui/new-password-fields.tsx';
import { toast } from '../../../stores/ui-store.ts';
import { useChangePassword, useRemoveAvatar, useUpdateProfile, useUploadAvatar } from '../api/profile-api.ts';

const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

function AvatarEditor({ user }: { user: User }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadAvatar({
    onSuccess: () => toast.success(t('profile.avatar.updated')),
    onError: (e) => toast.error(e.message),
  });
  const remove = useRemoveAvatar({
    onSuccess: () => toast.success(t('profile.avatar.removed')),
    onError: (e) => toast.error(e.message),
  });
  const onFile = (file: File | undefined) => {
    if (!file) return;
    if (!AVATAR_TYPES.includes(file.type)) return toast.error(t('profile.avatar.badType'));
    if (file.size > LIMITS.avatarMaxBytes)
      return toast.error(t('profile.avatar.tooLarge', { size: formatBytes(LIMITS.avatarMaxBytes) }));
    upload.mutate(file);
  };
  return (
    <div className="flex flex-wrap items-center gap-5">
      <Avatar user={user} size={80} />
      <div className="space-y-2">
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="secondary"
            loading={upload.isPending}
            onClick={() => input.current?.click()}
          >
            {t('profile.avatar.change')}
          </Button>
          {user.avatar && (
            <Button size="sm" variant="ghost" loading={remove.isPending} onClick={() => remove.mutate()}>
              {t('profile.avatar.remove')}
            </Button>
          )}
        </div>
        <p className="text-xs text-muted">
          {t('profile.avatar.hint', { size: formatBytes(LIMITS.avatarMaxBytes) })}
        </p>
        <input
          ref={input}
          type="file"
          accept={AVATAR_TYPES.join(',')}
          className="hidden"
          aria-label={t('profile.avatar.change')}
          onChange={(e) => {
            onFile(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </div>
    </div>
  );
}

export function AccountSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const [firstName, setFirstName] = useState(user.first_name);
  const [lastName, setLastName] = useState(user.last_name);
  const mutation = useUpdateProfile({
    onSuccess: () => toast.success(t('profile.account.saved')),
    onError: (e) => toast.error(clientErrorMessage(e, t('profile.account.error'))),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!firstName.trim() || !lastName.trim()) return toast.error(t('register.errors.firstNameRequired'));
    mutation.mutate({ first_name: firstName.trim(), last_name: lastName.trim() });
  };
  return (
    <Card>
      <CardTitle>{t('profile.account.title')}</CardTitle>
      <AvatarEditor user={user} />
      <form onSubmit={onSubmit} className="mt-6 grid gap-4 sm:grid-cols-2" noValidate>
        <InputField
          label={t('auth.fields.firstName')}
          value={firstName}
          dir="auto"
          onChange={(e) => setFirstName(e.target.value)}
        />
        <InputField
          label={t('auth.fields.lastName')}
          value={lastName}
          dir="auto"
          onChange={(e) => setLastName(e.target.value)}
        />
        <InputField label={t('auth.fields.email')} value={user.email} dir="ltr" readOnly disabled />
        <InputField
          label={t('profile.account.memberSince')}
          value={formatDate(user.date_joined)}
          readOnly
          disabled
        />
        <div className="sm:col-span-2">
          <Button type="submit" loading={mutation.isPending}>
            {t('common.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

export function PasswordSection() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const mutation = useChangePassword({
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setConfirm('');
      toast.success(t('profile.password.changed'));
    },
    onError: (e) => {
      if (e instanceof ApiError && e.fieldErrors('current_password').length > 0)
        setError(t('profile.password.wrongCurrent'));
      else if (e instanceof ApiError && e.fieldErrors('new_password')[0])
        setError(e.fieldErrors('new_password')[0] ?? null);
      else setError(clientErrorMessage(e, t('profile.password.error')));
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (next.length < LIMITS.passwordMinLength) return setError(t('register.errors.passwordTooShort'));
    if (next !== confirm) return setError(t('register.errors.passwordMismatch'));
    setError(null);
    mutation.mutate({ current_password: current, new_password: next, new_password_confirm: confirm });
  };
  return (
    <Card>
      <CardTitle>{t('profile.password.title')}</CardTitle>
      <form onSubmit={onSubmit} className="grid gap-4 sm:max-w-md" noValidate>
        {error && <Alert tone="danger">{error}</Alert>}
        <PasswordField
          label={t('profile.password.current')}
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <NewPasswordFields
          password={next}
          confirm={confirm}
          onPasswordChange={setNext}
          onConfirmChange={setConfirm}
          hint={t('register.rules.length', { min: LIMITS.passwordMinLength })}
        />
        <div>
          <Button type="submit" loading={mutation.isPending}>
            {t('profile.password.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
