// What a form field says under itself. The forms' zod schemas (react-hook-form's resolvers) carry i18n
// keys as their messages, translated here; an error the server sent (set with type 'server') is already
// in words.
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import type { FieldError } from 'react-hook-form';

export function useFieldErrorText(): (error: FieldError | undefined) => string | undefined {
  const { t } = useTranslation();
  return (error) => {
    if (!error?.message) return undefined;
    return error.type === 'server' ? error.message : t(error.message as ParseKeys);
  };
}
