import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Preferences, User } from '@tazamun/contracts/auth';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { Card, CardTitle } from '../../../components/ui/card.tsx';
import { Checkbox, SelectField } from '../../../components/ui/field.tsx';
import { LanguagePicker } from '../../../components/alignment/language-picker.tsx';
import { toast } from '../../../stores/ui-store.ts';
import { useUpdatePreferences } from '../api/profile-api.ts';

function usePreferencesMutation() {
  const { t } = useTranslation();
  return useUpdatePreferences({
    onSuccess: () => toast.success(t('profile.preferences.saved')),
    onError: (e) => toast.error(e.message),
  });
}

export function PreferencesSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const [prefs, setPrefs] = useState<Preferences>(user.preferences);
  const mutation = usePreferencesMutation();
  const set = <K extends keyof Preferences>(key: K, value: Preferences[K]) =>
    setPrefs((p) => ({ ...p, [key]: value }));
  const languageValid = /^[a-z]{3}$/.test(prefs.default_alignment_language);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!languageValid) return;
    mutation.mutate({
      default_alignment_language: prefs.default_alignment_language,
      confidence_threshold: prefs.confidence_threshold,
      animations: prefs.animations,
      compact_mode: prefs.compact_mode,
      fps: prefs.fps,
      watermark: prefs.watermark,
    });
  };
  return (
    <Card>
      <CardTitle>{t('profile.preferences.title')}</CardTitle>
      <form onSubmit={onSubmit} className="grid gap-5 sm:grid-cols-2" noValidate>
        <LanguagePicker
          label={t('profile.preferences.alignmentLanguage')}
          value={prefs.default_alignment_language}
          onChange={(code) => set('default_alignment_language', code)}
          error={languageValid ? null : t('profile.preferences.alignmentLanguageInvalid')}
        />
        <SelectField
          label={t('profile.preferences.confidence')}
          value={prefs.confidence_threshold}
          onChange={(e) => set('confidence_threshold', e.target.value as Preferences['confidence_threshold'])}
        >
          <option value="low">{t('profile.preferences.levels.low')}</option>
          <option value="medium">{t('profile.preferences.levels.medium')}</option>
          <option value="high">{t('profile.preferences.levels.high')}</option>
        </SelectField>
        <SelectField
          label={t('profile.preferences.fps')}
          value={prefs.fps}
          onChange={(e) => set('fps', e.target.value as Preferences['fps'])}
        >
          <option value="standard">{t('profile.preferences.fpsLevels.standard')}</option>
          <option value="smooth">{t('profile.preferences.fpsLevels.smooth')}</option>
        </SelectField>
        <div className="space-y-3 sm:col-span-2">
          <Checkbox
            label={t('profile.preferences.watermark')}
            checked={prefs.watermark}
            onChange={(e) => set('watermark', e.target.checked)}
          />
          <Checkbox
            label={t('profile.preferences.animations')}
            checked={prefs.animations}
            onChange={(e) => set('animations', e.target.checked)}
          />
          <Checkbox
            label={t('profile.preferences.compact')}
            checked={prefs.compact_mode}
            onChange={(e) => set('compact_mode', e.target.checked)}
          />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" loading={mutation.isPending} disabled={!languageValid}>
            {t('common.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

export function NotificationsSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const mutation = usePreferencesMutation();
  const [email, setEmail] = useState(user.preferences.email_notifications);
  return (
    <Card>
      <CardTitle>{t('profile.notifications.title')}</CardTitle>
      <div className="space-y-4">
        <Checkbox
          label={t('profile.notifications.email')}
          checked={email}
          onChange={(e) => {
            setEmail(e.target.checked);
            mutation.mutate({ email_notifications: e.target.checked });
          }}
        />
        <p className="text-sm text-muted">{t('profile.notifications.hint')}</p>
      </div>
    </Card>
  );
}

/** The personal lexicon has its own screen: the way there from the account. */
export function LexiconSection() {
  const { t } = useTranslation();
  return (
    <Card>
      <CardTitle>{t('profile.lexicon.title')}</CardTitle>
      <p className="text-sm text-muted">{t('profile.lexicon.body')}</p>
      <ButtonLink to="/lexicon" variant="secondary" size="sm" className="mt-4">
        {t('profile.lexicon.open')}
      </ButtonLink>
    </Card>
  );
}
