import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasNumberWords, numberToWords } from './numbers.ts';

test('the evaluation numbers in Arabic, English and French', () => {
  assert.equal(numberToWords('1948', 'ara'), 'ألف وتسعمائة وثمانية وأربعون');
  assert.equal(numberToWords('12', 'ara'), 'اثنا عشر');
  assert.equal(numberToWords('365', 'ara'), 'ثلاثمائة وخمسة وستون');
  assert.equal(numberToWords('1948', 'eng'), 'nineteen forty-eight');
  assert.equal(numberToWords('1948', 'fra'), 'mille neuf cent quarante-huit');
});

test('not a number, or no speller for the language: null', () => {
  assert.equal(numberToWords('abc', 'eng'), null);
  assert.equal(numberToWords('12.', 'eng'), null);
  assert.equal(numberToWords('1.2.3', 'eng'), null);
  assert.equal(numberToWords('12', 'jpn'), null);
  assert.ok(hasNumberWords('ara') && hasNumberWords('fra') && !hasNumberWords('jpn'));
});

test('decimal comma vs point, thousands grouping per language', () => {
  assert.equal(numberToWords('1.000', 'fra'), 'mille');
  assert.equal(numberToWords('2,5', 'fra'), 'deux virgule cinq');
  assert.equal(numberToWords('1,000', 'eng'), 'one thousand');
  assert.equal(numberToWords('2.5', 'eng'), 'two point five');
  assert.equal(numberToWords('-3', 'eng'), 'minus three');
});

test('ordinals and percent', () => {
  assert.equal(numberToWords('2nd', 'eng'), 'second');
  assert.equal(numberToWords('1er', 'fra'), 'premier');
  assert.equal(numberToWords('2nde', 'fra'), 'seconde');
  assert.equal(numberToWords('10%', 'ara'), 'عشرة في المئة');
  assert.equal(numberToWords('10%', 'jpn'), null);
});
