// Django's four default password validators, reimplemented with the same thresholds and messages so
// the web client's keyword matching ('too short', 'too common', 'numeric', 'similar') holds.
import { LIMITS } from '@tazamun/contracts/limits';
import { isCommonPassword } from './common-passwords.ts';
import { similarAttribute } from '@tazamun/contracts/password-similarity';
import type { PersonalInfo } from '@tazamun/contracts/password-similarity';

export type { PersonalInfo } from '@tazamun/contracts/password-similarity';

/** Every message that applies, in Django's order. */
export function validatePassword(password: string, info: PersonalInfo = {}): string[] {
  const errors: string[] = [];
  const similar = similarAttribute(password, info);
  if (similar) errors.push(`The password is too similar to the ${similar}.`);
  const min = LIMITS.passwordMinLength;
  if ([...password].length < min) {
    errors.push(`This password is too short. It must contain at least ${min} characters.`);
  }
  if (isCommonPassword(password)) errors.push('This password is too common.');
  if (/^\d+$/.test(password)) errors.push('This password is entirely numeric.');
  return errors;
}
