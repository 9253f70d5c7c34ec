// Server field errors are English sentences; the keywords they contain (FIELD_ERROR_KEYWORDS in the
// contracts) pick the localised message shown under the field.
import type { ParseKeys } from 'i18next';

export const REGISTER_FIELDS = ['first_name', 'last_name', 'email', 'password', 'password_confirm'] as const;
export type RegisterField = (typeof REGISTER_FIELDS)[number];

const BY_FIELD: Record<RegisterField, [string, ParseKeys][]> = {
  email: [
    ['already exists', 'register.errors.emailExists'],
    ['required', 'register.errors.emailRequired'],
    ['blank', 'register.errors.emailRequired'],
    ['invalid', 'register.errors.emailInvalid'],
  ],
  password: [
    ['too short', 'register.errors.passwordTooShort'],
    ['too common', 'register.errors.passwordTooCommon'],
    ['numeric', 'register.errors.passwordNumeric'],
    ['similar', 'register.errors.passwordSimilar'],
    ['required', 'register.errors.passwordRequired'],
    ['blank', 'register.errors.passwordRequired'],
    ['invalid', 'register.errors.passwordInvalid'],
  ],
  password_confirm: [
    ['match', 'register.errors.passwordMismatch'],
    ['required', 'register.errors.confirmRequired'],
    ['blank', 'register.errors.confirmRequired'],
    ['invalid', 'register.errors.passwordMismatch'],
  ],
  first_name: [
    ['required', 'register.errors.firstNameRequired'],
    ['blank', 'register.errors.firstNameRequired'],
    ['invalid', 'register.errors.nameInvalid'],
  ],
  last_name: [
    ['required', 'register.errors.lastNameRequired'],
    ['blank', 'register.errors.lastNameRequired'],
    ['invalid', 'register.errors.nameInvalid'],
  ],
};

/** The message key for a server field error, or null when no keyword matches. */
export function fieldErrorKey(field: RegisterField, serverMessage: string): ParseKeys | null {
  const text = serverMessage.toLowerCase();
  for (const [keyword, key] of BY_FIELD[field]) {
    if (text.includes(keyword)) return key;
  }
  return null;
}
