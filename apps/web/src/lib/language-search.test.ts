import { describe, expect, it } from 'vitest';
import { languageOptions, resolveLanguageText, searchLanguages } from './language-search.ts';

const entry = (code: string, iso1: string | null, name: string, native = false) => ({
  code,
  iso1,
  name,
  script: null,
  rtl: false,
  routes: ['espeak-ipa'],
  engines: ['hmm'],
  native_model: native,
});
const CATALOGUE = [
  entry('ara', 'ar', 'Arabic'),
  entry('arz', null, 'Egyptian Arabic'),
  entry('eng', 'en', 'English', true),
  entry('fra', 'fr', 'French', true),
  entry('deu', 'de', 'German'),
];

describe('language search', () => {
  it('resolves ISO 639-1, ISO 639-3, the English name and the autonym to the same 639-3 code', () => {
    const options = languageOptions(CATALOGUE, 'en');
    for (const text of ['ar', 'ara', 'Arabic', 'العربية', ' ARABIC ']) {
      expect(resolveLanguageText(options, text)?.code).toBe('ara');
    }
    expect(resolveLanguageText(options, 'arab')).toBeNull();
  });

  it('names languages in the interface language and finds them by that name', () => {
    const fr = languageOptions(CATALOGUE, 'fr');
    expect(fr.find((o) => o.code === 'deu')?.label).toBe('allemand');
    expect(resolveLanguageText(fr, 'Allemand')?.code).toBe('deu');
    expect(resolveLanguageText(fr, 'francais')?.code).toBe('fra');
    const ar = languageOptions(CATALOGUE, 'ar');
    expect(ar.find((o) => o.code === 'eng')?.label).toBe('الإنجليزية');
    expect(resolveLanguageText(ar, 'الإنجليزية')?.code).toBe('eng');
  });

  it('names the Arabic varieties in Arabic and French, and never shows two languages by one name', () => {
    const varieties = [
      entry('ara', 'ar', 'Arabic'),
      entry('arb', null, 'Standard Arabic'),
      entry('arq', null, 'Algerian Arabic'),
      entry('shu', null, 'Chadian Arabic'),
    ];
    const ar = languageOptions(varieties, 'ar').map((o) => o.label);
    expect(ar).toEqual(['العربية', 'العربية الفصحى', 'العربية الجزائرية', 'العربية التشادية']);
    expect(new Set(ar).size).toBe(ar.length);
    const fr = languageOptions(varieties, 'fr');
    expect(fr.map((o) => o.label)).toEqual(['arabe', 'arabe standard', 'arabe algérien', 'arabe tchadien']);
    expect(resolveLanguageText(fr, 'arabe algerien')?.code).toBe('arq');
    // two catalogue entries the browser names alike are told apart by their codes
    const twins = languageOptions([entry('xxa', null, 'Same'), entry('xxb', null, 'Same')], 'en');
    expect(twins.map((o) => o.label)).toEqual(['Same (xxa)', 'Same (xxb)']);
  });

  it('ranks exact codes first, then prefixes, then substrings', () => {
    const options = languageOptions(CATALOGUE, 'en');
    expect(searchLanguages(options, 'ar').map((o) => o.code)).toEqual(['ara', 'arz']);
    expect(searchLanguages(options, 'arabic').map((o) => o.code)).toEqual(['ara', 'arz']);
    expect(searchLanguages(options, 'egy').map((o) => o.code)).toEqual(['arz']);
    expect(searchLanguages(options, 'zzz')).toEqual([]);
    // Nothing typed: the languages with a native acoustic model.
    expect(searchLanguages(options, '').map((o) => o.code)).toEqual(['eng', 'fra']);
  });
});
