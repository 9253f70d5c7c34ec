import 'i18next';
import type { en } from './locales/en.ts';

// Typed keys: a `t('…')` call with a key missing from the English messages fails the type check.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
