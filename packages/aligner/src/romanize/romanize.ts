// Romanisation of any supported script into the MMS aligner's vocabulary (a-z and the apostrophe), the
// role uroman plays for MMS. The tables are our own (see the files beside this one); Chinese uses
// pinyin-pro's dictionary. Scripts covered: Latin (diacritics stripped, special letters expanded), Greek,
// Cyrillic, Arabic/Persian/Urdu, Hebrew, nine Brahmic scripts of India, Hangul, kana, hanzi, Ethiopic and
// Thai. A character no table covers is dropped and reported, so the caller can warn and mark a word that
// romanises to nothing as not aligned.
import { arabicStep, hebrewStep } from './abjads.ts';
import type { Step } from './abjads.ts';
import { cyrillicStep, greekStep } from './alphabets.ts';
import { hanStep, hangulStep, kanaStep } from './east-asian.ts';
import { ethiopicStep, thaiStep } from './ethiopic-thai.ts';
import { indicStep } from './indic.ts';

const LATIN_SPECIAL: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  đ: 'd',
  ħ: 'h',
  ı: 'i',
  ŋ: 'ng',
  ə: 'e',
  ɛ: 'e',
  ɔ: 'o',
  ɨ: 'i',
  ʉ: 'u',
  ƙ: 'k',
  ɓ: 'b',
  ɗ: 'd',
  ƴ: 'y',
  ʻ: "'",
  ʼ: "'",
  '’': "'",
  '‘': "'",
  ʿ: "'",
  ʾ: "'",
};

const latinStep: Step = (chars, i, out) => {
  const c = chars[i]!;
  if (/^[a-z']$/.test(c)) {
    out.push(c);
    return 1;
  }
  const m = LATIN_SPECIAL[c];
  if (m !== undefined) {
    out.push(m);
    return 1;
  }
  return 0;
};

const STEPS: readonly Step[] = [
  latinStep,
  greekStep,
  cyrillicStep,
  arabicStep,
  hebrewStep,
  indicStep,
  hangulStep,
  kanaStep,
  hanStep,
  ethiopicStep,
  thaiStep,
];

export interface Romanized {
  /** letters from the vocabulary only: a-z and the apostrophe */
  text: string;
  /** characters (letters or digits) that no table covers */
  unknown: string[];
}

/** Latin and Greek letters lose their accents; other scripts keep their marks for their own tables. */
function prepare(word: string): string[] {
  const out: string[] = [];
  for (const ch of word.normalize('NFC').toLowerCase()) {
    if (/\p{Script=Latin}|\p{Script=Greek}/u.test(ch)) {
      for (const d of ch.normalize('NFD')) if (!/\p{M}/u.test(d)) out.push(d);
    } else {
      out.push(ch);
    }
  }
  return out;
}

const STEPS_NO_HAN = STEPS.filter((s) => s !== hanStep);

/**
 * `lang` (ISO 639-3) only changes what has no single reading: Japanese kanji are not read as Mandarin
 * pinyin but reported as not romanised.
 */
export function romanizeWord(word: string, lang?: string): Romanized {
  const steps = lang === 'jpn' ? STEPS_NO_HAN : STEPS;
  const chars = prepare(word);
  const out: string[] = [];
  const unknown: string[] = [];
  for (let i = 0; i < chars.length;) {
    let used = 0;
    for (const step of steps) {
      used = step(chars, i, out);
      if (used > 0) break;
    }
    if (used === 0) {
      if (/[\p{L}\p{N}]/u.test(chars[i]!)) unknown.push(chars[i]!);
      used = 1;
    }
    i += used;
  }
  // Apostrophes only between letters: a leading or trailing one is punctuation, not a glottal stop.
  const text = out
    .join('')
    .replace(/[^a-z']/g, '')
    .replace(/'+/g, "'")
    .replace(/^'+|'+$/g, '');
  return { text, unknown };
}
