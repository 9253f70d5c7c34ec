import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commonPasswords, isCommonPassword } from './common-passwords.ts';
import { quickRatio, similarAttribute } from '@tazamun/contracts/password-similarity';
import { validatePassword } from './password-validation.ts';

test('quick_ratio matches Python difflib', () => {
  // Values computed with difflib.SequenceMatcher(a=..., b=...).quick_ratio() in CPython 3.12.
  assert.equal(quickRatio('abcd', 'bcde'), 0.75);
  assert.equal(quickRatio('amina', 'amina'), 1);
  assert.equal(quickRatio('', ''), 1);
  assert.equal(quickRatio('abc', ''), 0);
  assert.ok(Math.abs(quickRatio('aminahaddad', 'amina') - 0.625) < 1e-12);
});

test('the common-password list is real and large', () => {
  assert.ok(commonPasswords().size >= 20_000, `only ${commonPasswords().size} entries`);
  assert.equal(isCommonPassword('Password'), true);
  assert.equal(isCommonPassword(' qwerty123 '), true);
  assert.equal(isCommonPassword('Lantern-Orbit-1987'), false);
});

test('similarity follows Django: attribute parts, length-ratio exemption', () => {
  assert.equal(similarAttribute('haddad2024x', { last_name: 'Haddad' }), 'last name');
  assert.equal(
    similarAttribute('Lantern-Orbit-1987', { first_name: 'Amina', email: 'amina@example.org' }),
    null,
  );
  // A 2-letter name cannot make a 20-letter password "similar".
  assert.equal(similarAttribute('al-qwerty-lantern-99', { first_name: 'Al' }), null);
  assert.equal(similarAttribute('zoubir_kateb1', { email: 'zoubir_kateb@example.org' }), 'email address');
});

test('all applicable messages are returned, in Django wording', () => {
  assert.deepEqual(validatePassword('1234567'), [
    'This password is too short. It must contain at least 8 characters.',
    'This password is too common.',
    'This password is entirely numeric.',
  ]);
  assert.deepEqual(validatePassword('Lantern-Orbit-1987', { first_name: 'Amina' }), []);
});
