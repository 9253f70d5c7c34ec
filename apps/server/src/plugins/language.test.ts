import { test } from 'node:test';
import assert from 'node:assert/strict';
import { negotiateLanguage } from './language.ts';

test('?lang= wins, then Accept-Language by weight, then English', () => {
  assert.equal(negotiateLanguage({ lang: 'AR' }, 'fr'), 'ar');
  assert.equal(negotiateLanguage({ lang: 'de' }, 'fr-CA,fr;q=0.9'), 'fr');
  assert.equal(negotiateLanguage({}, 'de-DE,de;q=0.9,ar;q=0.8,fr;q=0.7'), 'ar');
  assert.equal(negotiateLanguage({}, 'fr;q=0.5, en;q=0.9'), 'en');
  assert.equal(negotiateLanguage({}, 'ar;q=0, fr;q=0.1'), 'fr');
  assert.equal(negotiateLanguage(undefined, 'de, ja'), 'en');
  assert.equal(negotiateLanguage(undefined, undefined), 'en');
});
