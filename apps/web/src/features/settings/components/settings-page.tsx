import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PREFERENCES, FEEDBACK_TYPES } from '@tazamun/contracts/auth';
import { UI_LANGUAGES } from '@tazamun/contracts/limits';
import type { UiLanguage } from '@tazamun/contracts/limits';
import { changeLanguage, currentLanguage, i18n } from '../../../lib/i18n.ts';
import type { Theme } from '../../../lib/theme.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardTitle, PageHeader } from '../../../components/ui/card.tsx';
import { InputField, SelectField, TextareaField } from '../../../components/ui/field.tsx';
import { toast, useUiStore } from '../../../stores/ui-store.ts';
import { useSaveAppearance, useSendFeedback } from '../api/settings-api.ts';

const LANGUAGE_NAMES: Record<UiLanguage, string> = { ar: 'العربية', fr: 'Français', en: 'English' };

function AppearanceCard() {
  const { t } = useTranslation();
  const theme = useUiStore((s) => s.theme);
  const setTheme = useUiStore((s) => s.setTheme);
  const [draftLanguage, setDraftLanguage] = useState<UiLanguage>(currentLanguage());
  const [draftTheme, setDraftTheme] = useState<Theme>(theme);
  const mutation = useSaveAppearance({ onError: (e) => toast.error(e.message) });
  // This browser takes the choice at once; the account keeps it for the user's other browsers. The
  // success message waits for the server, whose failure has its own message (onError).
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTheme(draftTheme);
    await changeLanguage(draftLanguage);
    const saved = await mutation.mutateAsync({ theme: draftTheme, language: draftLanguage }).then(
      () => true,
      () => false,
    );
    // i18n.t, not the render's t: the message speaks the language just chosen.
    if (saved) toast.success(i18n.t('settings.saved'));
  };
  const reset = () => {
    setDraftLanguage(DEFAULT_PREFERENCES.language);
    setDraftTheme(DEFAULT_PREFERENCES.theme);
  };
  return (
    <Card>
      <CardTitle>{t('settings.appearance.title')}</CardTitle>
      <form onSubmit={(e) => void onSubmit(e)} className="grid gap-5 sm:grid-cols-2">
        <SelectField
          label={t('settings.appearance.language')}
          value={draftLanguage}
          onChange={(e) => setDraftLanguage(e.target.value as UiLanguage)}
        >
          {UI_LANGUAGES.map((lang) => (
            <option key={lang} value={lang} lang={lang}>
              {LANGUAGE_NAMES[lang]}
            </option>
          ))}
        </SelectField>
        <fieldset className="space-y-1.5">
          <legend className="mb-1.5 text-sm font-medium">{t('settings.appearance.theme')}</legend>
          <div className="grid grid-cols-2 gap-2">
            {(['dark', 'light'] as const).map((value) => (
              <label
                key={value}
                className={`flex h-10 cursor-pointer items-center justify-center gap-2 rounded-lg border text-sm ${
                  draftTheme === value ? 'border-accent bg-accent-soft text-fg' : 'border-border text-muted'
                }`}
              >
                <input
                  type="radio"
                  name="theme"
                  value={value}
                  checked={draftTheme === value}
                  onChange={() => setDraftTheme(value)}
                  className="sr-only"
                />
                {t(`settings.appearance.${value}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-wrap gap-2 sm:col-span-2">
          <Button type="submit" loading={mutation.isPending}>
            {t('common.save')}
          </Button>
          <Button variant="secondary" onClick={reset}>
            {t('settings.reset')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function FeedbackCard() {
  const { t } = useTranslation();
  const [type, setType] = useState<(typeof FEEDBACK_TYPES)[number]>('suggestion');
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const mutation = useSendFeedback({
    onSuccess: () => {
      setSubject('');
      setMessage('');
      toast.success(t('settings.feedback.sent'));
    },
    onError: (e) => toast.error(e.message),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!message.trim()) return setError(t('settings.feedback.messageRequired'));
    setError(null);
    mutation.mutate({ type, subject: subject.trim() || null, message: message.trim() });
  };
  return (
    <Card>
      <CardTitle>{t('settings.feedback.title')}</CardTitle>
      <p className="mb-5 text-sm text-muted">{t('settings.feedback.intro')}</p>
      <form onSubmit={onSubmit} className="grid gap-5 sm:grid-cols-2" noValidate>
        <SelectField
          label={t('settings.feedback.type')}
          value={type}
          onChange={(e) => setType(e.target.value as typeof type)}
        >
          {FEEDBACK_TYPES.map((value) => (
            <option key={value} value={value}>
              {t(`settings.feedback.types.${value}`)}
            </option>
          ))}
        </SelectField>
        <InputField
          label={t('settings.feedback.subject')}
          value={subject}
          maxLength={200}
          dir="auto"
          onChange={(e) => setSubject(e.target.value)}
        />
        <div className="sm:col-span-2">
          <TextareaField
            label={t('settings.feedback.message')}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            error={error}
            required
          />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" loading={mutation.isPending}>
            {t('settings.feedback.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

export function SettingsPage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-10 sm:px-6">
      <PageHeader title={t('settings.title')} subtitle={t('settings.subtitle')} />
      <AppearanceCard />
      <FeedbackCard />
    </div>
  );
}
