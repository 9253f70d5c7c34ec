import { test } from 'node:test';
import assert from 'node:assert/strict';
import { romanizeWord } from './romanize.ts';

const r = (w: string): string => romanizeWord(w).text;

test('every script the issue lists romanises into the a-z + apostrophe vocabulary', () => {
  const cases: [string, string, string][] = [
    ['Latin with diacritics', 'Ðàó Straße Øre çà', 'dao strasse ore ca'],
    ['Arabic (unvowelled)', 'كتاب', 'ktab'],
    ['Arabic (vowelled, shadda)', 'مُحَمَّد', 'muhammad'],
    ['Arabic (waw and yeh as vowels and glides)', 'يوم', 'yum'],
    ['Persian', 'پدر گفت', 'pdr gft'],
    ['Urdu', 'ٹوپی', 'tupi'],
    ['Hebrew', 'שלום', 'shlom'],
    ['Russian', 'Привет мир', 'privet mir'],
    ['Ukrainian', 'Київ', 'kiyiv'],
    ['Greek', 'Καλημέρα', 'kalimera'],
    ['Devanagari', 'नमस्ते', 'namaste'],
    ['Devanagari (nukta)', 'ज़रूर', 'zarur'],
    ['Bengali', 'বাংলা', 'banla'],
    ['Chinese', '中国', 'zhongguo'],
    ['Japanese hiragana', 'きょうと', 'kyouto'],
    ['Japanese katakana (small tsu, long mark)', 'コーヒー', 'koohii'],
    ['Japanese (sokuon)', 'がっこう', 'gakkou'],
    ['Korean', '한국어', 'hangugeo'],
    ['Ethiopic', 'ሰላም', 'selam'],
    ['Thai (leading vowel)', 'เมือง', 'meueong'],
  ];
  for (const [name, input, want] of cases) {
    const got = input
      .split(' ')
      .map((w) => r(w))
      .join(' ');
    assert.equal(got, want, name);
    assert.match(got.replace(/ /g, ''), /^[a-z']+$/, name);
  }
});

test('Korean final consonants follow the Revised Romanization', () => {
  assert.equal(r('닭'), 'dak');
  assert.equal(r('서울'), 'seoul');
});

test('apostrophes stay inside words only; hamza and ayin become apostrophes', () => {
  assert.equal(r("don't"), "don't");
  assert.equal(r("'quoted'"), 'quoted');
  assert.equal(r('سؤال'), "s'al");
});

test('characters no table covers are reported, not silently invented', () => {
  const g = romanizeWord('ᐊᐃᓐᓇ'); // Canadian syllabics: no table
  assert.equal(g.text, '');
  assert.equal(g.unknown.length, 4);
  assert.deepEqual(romanizeWord('!?').unknown, []);
});
