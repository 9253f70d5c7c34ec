// Registration and profile field rules (spec section 5), reported per field with Django's wording.
import type { FieldErrorCollector } from '../errors.ts';
import { FIELD_MESSAGES } from '../errors.ts';
import type { PersonalInfo } from './password-validation.ts';
import { validatePassword } from './password-validation.ts';

// Letters and combining marks of any script, separated by spaces, hyphens or apostrophes.
const NAME = /^[\p{L}\p{M}]+(?:[\p{L}\p{M}]|[ '’-](?=[\p{L}\p{M}]))*$/u;
// The practical subset of RFC 5322 Django's EmailValidator accepts: dot-atom local part, dotted domain.
const EMAIL =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}]{2,63}$/u;

export const NAME_MAX = 150;
export const EMAIL_MAX = 254;

export function normaliseEmail(email: string): { email: string; key: string } {
  const trimmed = email.trim();
  return { email: trimmed, key: trimmed.toLowerCase() };
}

export function checkName(errors: FieldErrorCollector, field: string, value: string): string {
  const v = value.trim().replace(/\s+/g, ' ');
  if (v === '') errors.add(field, FIELD_MESSAGES.blank);
  else if (v.length > NAME_MAX) errors.add(field, FIELD_MESSAGES.tooLong(NAME_MAX));
  else if (!NAME.test(v)) errors.add(field, FIELD_MESSAGES.invalidName);
  return v;
}

export function checkEmail(errors: FieldErrorCollector, field: string, value: string): string {
  const { email } = normaliseEmail(value);
  if (email === '') errors.add(field, FIELD_MESSAGES.blank);
  else if (email.length > EMAIL_MAX) errors.add(field, FIELD_MESSAGES.tooLong(EMAIL_MAX));
  else if (!EMAIL.test(email)) errors.add(field, FIELD_MESSAGES.invalidEmail);
  return email;
}

/** New password + confirmation: blank, mismatch and the four strength validators. */
export function checkNewPassword(
  errors: FieldErrorCollector,
  fields: { password: string; confirm: string },
  password: string,
  confirm: string,
  info: PersonalInfo,
): void {
  if (password === '') {
    errors.add(fields.password, FIELD_MESSAGES.blank);
    return;
  }
  for (const msg of validatePassword(password, info)) errors.add(fields.password, msg);
  if (confirm === '') errors.add(fields.confirm, FIELD_MESSAGES.blank);
  else if (password !== confirm) errors.add(fields.confirm, FIELD_MESSAGES.passwordMismatch);
}
