// The phone tier a phonetician reads: IPA, with the phones the model stood in for marked, and the glottal
// stop the English model cannot place kept at the onset of its syllable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PhoneSpan, Unit } from '../acoustic/backend.ts';
import { ipaToModelPhones, phoneSet } from '../acoustic/hmm/phone-map.ts';
import { LEAD_SECONDS, ipaPhones } from './ipa-tier.ts';

// a tenth of a second each (k / 10 is exact as a decimal: 0.3, not 0.30000000000000004)
const spans = (models: string[]): PhoneSpan[] =>
  models.map((phone, k) => ({ phone, start: k / 10, end: (k + 1) / 10, confidence: 0.8 }));

function latticeUnit(latticeIpa: string[][]): Unit {
  return {
    tokenIndex: 0,
    wordIndex: 0,
    text: 'w',
    prons: [],
    latticeIpa,
    lattice: latticeIpa.map((slot) => slot.map((alt) => (alt === '' ? [] : ipaToModelPhones(alt, 'en')))),
  };
}

const tier = (unit: Unit, models: string[]) =>
  ipaPhones([unit], [{ unit: 0, phones: spans(models) }], 'en').map((p) => ({
    phone: p.phone,
    model: p.model_phone,
    approximated: p.approximated === true,
    start: p.start,
    end: p.end,
  }));

test('إِلَى on the English model: ʔ at the onset of i, i and l its own, aː stood in for by AA', () => {
  const got = tier(latticeUnit([['ʔ'], ['i'], ['l'], ['aː']]), ['IY', 'L', 'AA']);
  assert.deepEqual(
    got.map((p) => [p.phone, p.model, p.approximated]),
    [
      ['ʔ', '', true],
      ['i', 'IY', false],
      ['l', 'L', false],
      ['aː', 'AA', true],
    ],
  );
  assert.equal(got[0]!.start, 0);
  assert.equal(got[0]!.end, LEAD_SECONDS);
  assert.equal(got[1]!.start, LEAD_SECONDS, 'the vowel keeps the rest of its interval');
});

test('a final ʔ (لِيَقْرَأَ without its last vowel) ends the word; the article’s ʔ goes with its vowel', () => {
  const final = tier(latticeUnit([['q'], ['r'], ['a'], ['ʔ'], ['a', '']]), ['K', 'R', 'AA']);
  assert.deepEqual(
    final.map((p) => p.phone),
    ['q', 'r', 'a', 'ʔ'],
  );
  assert.equal(final[3]!.end, 0.3);
  assert.ok(final[3]!.start < 0.3 && final[2]!.end === final[3]!.start);
  // al- with its vowel said: ʔ a l; without it (mid-sentence): l only
  const said = tier(latticeUnit([['ʔ', ''], ['a', ''], ['l'], ['b']]), ['AA', 'L', 'B']);
  assert.deepEqual(
    said.map((p) => p.phone),
    ['ʔ', 'a', 'l', 'b'],
  );
  const elided = tier(latticeUnit([['ʔ', ''], ['a', ''], ['l'], ['b']]), ['L', 'B']);
  assert.deepEqual(
    elided.map((p) => p.phone),
    ['l', 'b'],
  );
});

test('English dictionary phones are the model’s own; ɲ as N Y is one approximated interval', () => {
  const dict: Unit = { tokenIndex: 0, wordIndex: 0, text: 'she', prons: [['SH', 'IY']] };
  assert.ok(tier(dict, ['SH', 'IY']).every((p) => !p.approximated));
  const ipa: Unit = { tokenIndex: 0, wordIndex: 0, text: 'ɲa', prons: [['N', 'Y', 'AA']], ipa: ['ɲa'] };
  const got = tier(ipa, ['N', 'Y', 'AA']);
  assert.deepEqual(
    got.map((p) => [p.phone, p.model, p.approximated]),
    [
      ['ɲ', 'N Y', true],
      ['a', 'AA', true],
    ],
  );
  // eSpeak writes English IY long: still the model's own phone
  const long: Unit = { tokenIndex: 0, wordIndex: 0, text: 'x', prons: [['SH', 'IY']], ipa: ['ʃiː'] };
  assert.ok(tier(long, ['SH', 'IY']).every((p) => !p.approximated));
});

test('an adapted model’s own phones (ʕ, ʔ) are mapped to, placed and not approximated', () => {
  const set = phoneSet('en', [
    { phone: 'AIN', ipa: 'ʕ', from: 'HH' },
    { phone: 'Q', ipa: 'ʔ', from: 'T' },
  ]);
  assert.deepEqual(ipaToModelPhones('ʔaʕa', set), ['Q', 'AA', 'AIN', 'AA']);
  const unit: Unit = { tokenIndex: 0, wordIndex: 0, text: 'x', prons: [['Q', 'AA', 'AIN']], ipa: ['ʔaʕ'] };
  const got = ipaPhones([unit], [{ unit: 0, phones: spans(['Q', 'AA', 'AIN']) }], set);
  assert.deepEqual(
    got.map((p) => [p.phone, p.model_phone, p.approximated === true]),
    [
      ['ʔ', 'Q', false],
      ['a', 'AA', true],
      ['ʕ', 'AIN', false],
    ],
  );
});
