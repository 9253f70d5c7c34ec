// An alignment language's name in the interface language ("العربية" for ara on an Arabic page), for
// the places that show a language rather than choose one. The code while the catalogue loads.
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguages } from './api/get-languages.ts';
import { languageOptions } from './language-search.ts';

export function useLanguageName(): (code: string) => string {
  const { i18n } = useTranslation();
  const languages = useLanguages();
  const names = useMemo(
    () =>
      new Map(languageOptions(languages.data?.results ?? [], i18n.language).map((o) => [o.code, o.label])),
    [languages.data, i18n.language],
  );
  return useCallback((code: string) => names.get(code) ?? code, [names]);
}
