import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ipaToModelPhones } from './phone-map.ts';

test('IPA maps onto ARPAbet with affricates, length and emphatics', () => {
  assert.deepEqual(ipaToModelPhones('dʒʌmp', 'en'), ['JH', 'AH', 'M', 'P']);
  assert.deepEqual(ipaToModelPhones('baxiːl', 'en'), ['B', 'AA', 'HH', 'IY', 'L']);
  assert.deepEqual(ipaToModelPhones('sˤabaːħ', 'en'), ['S', 'AA', 'B', 'AA', 'HH']);
  assert.deepEqual(ipaToModelPhones('ˈkit.taːb', 'en'), ['K', 'IY', 'T', 'AA', 'B']);
});

test('IPA maps onto the French model phones, nasal vowels included', () => {
  assert.deepEqual(ipaToModelPhones('bɔ̃ʒuʁ', 'fr'), ['bb', 'on', 'jj', 'ou', 'rr']);
  assert.deepEqual(ipaToModelPhones('ʃa', 'fr'), ['ch', 'aa']);
});
