import { describe, expect, it } from 'vitest';
import { FIELD_ERROR_KEYWORDS } from '@tazamun/contracts/auth';
import { fieldErrorKey } from './field-errors.ts';
import { similarAttribute } from '@tazamun/contracts/password-similarity';
import { passwordRules } from './password-rules.ts';

describe('register field errors', () => {
  it.each([
    ['email', 'User with this email already exists.', 'register.errors.emailExists'],
    ['email', 'Enter a valid email address (invalid).', 'register.errors.emailInvalid'],
    ['email', 'This field is required.', 'register.errors.emailRequired'],
    ['email', 'This field may not be blank.', 'register.errors.emailRequired'],
    [
      'password',
      'This password is too short. It must contain at least 8 characters.',
      'register.errors.passwordTooShort',
    ],
    ['password', 'This password is too common.', 'register.errors.passwordTooCommon'],
    ['password', 'This password is entirely numeric.', 'register.errors.passwordNumeric'],
    ['password', 'The password is too similar to the first name.', 'register.errors.passwordSimilar'],
    ['password_confirm', 'Passwords do not match.', 'register.errors.passwordMismatch'],
    ['first_name', 'This field may not be blank.', 'register.errors.firstNameRequired'],
    ['last_name', 'Invalid characters in name.', 'register.errors.nameInvalid'],
  ] as const)('%s: "%s"', (field, message, key) => {
    expect(fieldErrorKey(field, message)).toBe(key);
  });

  it('covers every keyword of the contract on some field', () => {
    const fields = ['email', 'password', 'password_confirm', 'first_name', 'last_name'] as const;
    for (const keyword of FIELD_ERROR_KEYWORDS) {
      expect(
        fields.some((f) => fieldErrorKey(f, `x ${keyword} y`) !== null),
        keyword,
      ).toBe(true);
    }
  });

  it('returns null when nothing matches, so the server text is shown', () => {
    expect(fieldErrorKey('email', 'Something else entirely.')).toBeNull();
  });
});

describe('password rules', () => {
  it('flags length, digits only, closeness to personal data and mismatch', () => {
    expect(passwordRules('1234567', '1234567', {})).toEqual({
      length: false,
      notNumeric: false,
      notSimilar: true,
      matches: true,
    });
    expect(passwordRules('haddad-2025', 'x', { last_name: 'Haddad' })).toMatchObject({
      notSimilar: false,
      matches: false,
    });
    expect(
      passwordRules('quiet-river-71', 'quiet-river-71', { first_name: 'Layla', email: 'layla@x.org' }),
    ).toEqual({
      length: true,
      notNumeric: true,
      notSimilar: true,
      matches: true,
    });
  });

  it('judges closeness exactly as the server does (the same rule from contracts)', () => {
    // the name reversed holds no substring of it, yet the server refuses it (quick ratio 0.86)
    expect(similarAttribute('ilaneb12', { last_name: 'Benali' })).toBe('last name');
    expect(passwordRules('ilaneb12', 'ilaneb12', { last_name: 'Benali' }).notSimilar).toBe(false);
    // a long password that merely contains a short name part is accepted by both
    expect(similarAttribute('al-qwerty-lantern-99', { first_name: 'Al' })).toBeNull();
    expect(passwordRules('al-qwerty-lantern-99', 'x', { first_name: 'Al' }).notSimilar).toBe(true);
  });
});
