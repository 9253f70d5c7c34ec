import assert from 'node:assert/strict';
import test from 'node:test';
import { checkLanguage, detectLanguage, sameLanguage } from './language-check.ts';

test('an English transcript is eng, an Arabic one arb, a French one fra', () => {
  assert.equal(
    detectLanguage('The birch canoe slid on the smooth planks and the boy was there when the sun rose.'),
    'eng',
  );
  // one short sentence: German scores a little above English, the chosen English is close enough
  assert.equal(detectLanguage('She had your dark suit in greasy wash water all year.'), 'deu');
  assert.equal(detectLanguage('She had your dark suit in greasy wash water all year.', 'eng'), 'eng');
  assert.equal(detectLanguage('عِنْدَمَا ذَهَبْتُ إِلَى السُّوقِ اشْتَرَيْتُ الكَثِيرَ مِنَ الفَاكِهَةِ'), 'arb');
  assert.equal(
    detectLanguage('Condamné à mort ! Voilà cinq semaines que j’habite avec cette pensée.'),
    'fra',
  );
});

test('a text too short to tell is not given a language', () => {
  assert.equal(detectLanguage('Hello there'), null);
  assert.deepEqual(checkLanguage('Hello there', 'fra'), { detected: null, disagrees: false });
});

test('the chosen language is checked against the detected one, macrolanguages included', () => {
  const en = 'The birch canoe slid on the smooth planks and the boy was there when the sun rose.';
  const ar = 'عِنْدَمَا ذَهَبْتُ إِلَى السُّوقِ اشْتَرَيْتُ الكَثِيرَ مِنَ الفَاكِهَةِ';
  assert.deepEqual(checkLanguage(en, 'eng'), { detected: 'eng', disagrees: false });
  assert.deepEqual(checkLanguage(en, 'ara'), { detected: 'eng', disagrees: true });
  // Arabic chosen as the macrolanguage or as a variety: franc's arb agrees with both
  assert.deepEqual(checkLanguage(ar, 'ara'), { detected: 'arb', disagrees: false });
  assert.deepEqual(checkLanguage(ar, 'aeb'), { detected: 'arb', disagrees: false });
  assert.equal(sameLanguage('hrv', 'srp'), true);
  assert.equal(sameLanguage('eng', 'fra'), false);
});

test('a language the detector does not know is not reported as a disagreement; IPA is not checked', () => {
  // Welsh is outside franc-min: whatever it guesses, it cannot contradict the user
  assert.equal(
    checkLanguage('Mae hen wlad fy nhadau yn annwyl i mi, gwlad beirdd a chantorion', 'cym').disagrees,
    false,
  );
  assert.deepEqual(checkLanguage('baxiːl ʕinda maː sˤabbat', 'aeb', 'ipa'), {
    detected: null,
    disagrees: false,
  });
});
