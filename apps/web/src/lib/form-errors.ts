// What a form field says under itself. The forms' zod schemas (react-hook-form's resolvers) carry i18n
// keys as their messages, translated here; an error set with the type WORDS (the server's, or one the
// page composed with its numbers) is already in words.
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import type { FieldError } from 'react-hook-form';

/** The type of a field error whose message is shown as it is. */
export const WORDS = 'words';

export function useFieldErrorText(): (error: FieldError | undefined) => string | undefined {
  const { t } = useTranslation();
  return (error) => {
    if (!error?.message) return undefined;
    return error.type === WORDS ? error.message : t(error.message as ParseKeys);
  };
}
