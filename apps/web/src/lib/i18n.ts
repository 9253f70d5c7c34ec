// Interface languages: Arabic (default, right-to-left), French, English. Messages are bundled (no
// network loading) and use single-brace placeholders, like the contracts' error catalogue.
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { UI_LANGUAGES, RTL_LANGUAGES } from '@tazamun/contracts/limits';
import type { UiLanguage } from '@tazamun/contracts/limits';
import { ar } from '../i18n/locales/ar.ts';
import { en } from '../i18n/locales/en.ts';
import { fr } from '../i18n/locales/fr.ts';

export const LANGUAGE_STORAGE_KEY = 'language';

/** The Intl locale of an interface language: Arabic with Arabic-Indic digits (lib/format.ts uses it). */
export function intlLocale(lang: string | undefined): string {
  return lang === 'ar' ? 'ar-EG' : lang === 'fr' ? 'fr-FR' : 'en-GB';
}
export const DEFAULT_LANGUAGE: UiLanguage = 'ar';

export const i18n = i18next.createInstance();

export function isUiLanguage(value: unknown): value is UiLanguage {
  return typeof value === 'string' && (UI_LANGUAGES as readonly string[]).includes(value);
}

/** Direction of a language tag (interface or content): rtl for ar, he, fa, ur. */
export function directionOf(lang: string | null | undefined): 'rtl' | 'ltr' {
  const base = (lang ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  return (RTL_LANGUAGES as readonly string[]).includes(base) ? 'rtl' : 'ltr';
}

export function storedLanguage(): UiLanguage {
  try {
    const value = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isUiLanguage(value) ? value : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/** True once this browser holds a language the visitor picked (or adopted from their account). */
export function hasStoredLanguage(): boolean {
  try {
    return isUiLanguage(localStorage.getItem(LANGUAGE_STORAGE_KEY));
  } catch {
    return false;
  }
}

function applyDocumentLanguage(lang: string): void {
  document.documentElement.lang = lang;
  document.documentElement.dir = directionOf(lang);
}

export function currentLanguage(): UiLanguage {
  return isUiLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

export async function changeLanguage(lang: UiLanguage): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    // Storage may be blocked; the language still applies for this visit.
  }
  await i18n.changeLanguage(lang);
}

let ready: Promise<unknown> | null = null;

export function initI18n(lang: UiLanguage = storedLanguage()): Promise<unknown> {
  if (!ready) {
    i18n.on('languageChanged', applyDocumentLanguage);
    ready = i18n.use(initReactI18next).init({
      resources: { ar: { translation: ar }, fr: { translation: fr }, en: { translation: en } },
      lng: lang,
      fallbackLng: false,
      supportedLngs: [...UI_LANGUAGES],
      // Every number put into a message is written in the digits of the message's language (Arabic-
      // Indic in Arabic), so call sites pass numbers, and a `count` chooses the plural form.
      interpolation: {
        escapeValue: false,
        prefix: '{',
        suffix: '}',
        alwaysFormat: true,
        format: (value: unknown, _format?: string, lng?: string): string =>
          typeof value === 'number'
            ? new Intl.NumberFormat(intlLocale(lng)).format(value)
            : (value as string),
      },
      returnNull: false,
      initAsync: false,
      showSupportNotice: false,
    });
    applyDocumentLanguage(lang);
  }
  return ready;
}
