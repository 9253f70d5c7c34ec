import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ERRORS, errorMessage, formatMessage } from './errors.ts';
import { UI_LANGUAGES } from './limits.ts';

test('every catalogue entry has a message in each interface language with the same placeholders', () => {
  for (const [code, entry] of Object.entries(ERRORS)) {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const en = placeholders(entry.messages.en);
    for (const lang of UI_LANGUAGES) {
      assert.ok(entry.messages[lang].length > 0, `${code} ${lang}`);
      assert.deepEqual(placeholders(entry.messages[lang]), en, `${code} ${lang} placeholders`);
    }
  }
});

test('placeholders are filled and unknown ones kept', () => {
  assert.equal(formatMessage('in {minutes} min {x}', { minutes: 15 }), 'in 15 min {x}');
  assert.equal(errorMessage('timeout', 'en'), 'Processing took too long. Try with a shorter file.');
  assert.match(errorMessage('quota_exhausted', 'fr', { limit: 10 }), /^Quota quotidien épuisé \(10/);
});
