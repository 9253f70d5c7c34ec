import { useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { User } from '@tazamun/contracts/auth';
import { LIMITS } from '@tazamun/contracts/limits';
import { PROFILE_QUERY_KEY } from '../../../lib/auth.ts';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatBytes, formatDate } from '../../../lib/format.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, CardTitle } from '../../../components/ui/card.tsx';
import { InputField } from '../../../components/ui/field.tsx';
import { toast } from '../../../stores/ui-store.ts';
import { changePassword, removeAvatar, updateProfile, uploadAvatar } from '../api/profile-api.ts';

const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

function AvatarEditor({ user }: { user: User }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
  const upload = useMutation({
    mutationFn: uploadAvatar,
    onSuccess: () => {
      toast.success(t('profile.avatar.updated'));
      void refresh();
    },
    onError: (e) => toast.error(e.message),
  });
  const remove = useMutation({
    mutationFn: removeAvatar,
    onSuccess: () => {
      toast.success(t('profile.avatar.removed'));
      void refresh();
    },
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
  const queryClient = useQueryClient();
  const [firstName, setFirstName] = useState(user.first_name);
  const [lastName, setLastName] = useState(user.last_name);
  const mutation = useMutation({
    mutationFn: updateProfile,
    onSuccess: (updated) => {
      queryClient.setQueryData(PROFILE_QUERY_KEY, updated);
      toast.success(t('profile.account.saved'));
    },
    onError: (e) =>
      toast.error(
        e instanceof ApiError && e.status !== null && e.status < 500 ? e.message : t('profile.account.error'),
      ),
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
  const mutation = useMutation({
    mutationFn: changePassword,
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
      else
        setError(
          e instanceof ApiError && e.status !== null && e.status < 500
            ? e.message
            : t('profile.password.error'),
        );
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
        <InputField
          label={t('profile.password.current')}
          type="password"
          autoComplete="current-password"
          dir="ltr"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <InputField
          label={t('auth.reset.newPassword')}
          type="password"
          autoComplete="new-password"
          dir="ltr"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          hint={t('register.rules.length', { min: LIMITS.passwordMinLength })}
        />
        <InputField
          label={t('auth.fields.passwordConfirm')}
          type="password"
          autoComplete="new-password"
          dir="ltr"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
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
