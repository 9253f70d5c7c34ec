// Brahmic scripts of India (Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada,
// Malayalam) to Latin. Unicode lays these blocks out in parallel (ISCII order), so one table of offsets
// inside a block serves all nine; each block starts at its own base code point. A consonant carries the
// inherent vowel unless a vowel sign or the virama follows; the inherent vowel at the end of a word is
// dropped (schwa deletion, right for Hindi, Marathi, Punjabi, Gujarati and Bengali's final consonants).
// Long vowels are written as single letters: the model's letters are not phonemically long.
import type { Step } from './abjads.ts';

interface Block {
  base: number;
  inherent: string;
  /** the inherent vowel is silent at the end of a word (Indo-Aryan), or spoken (Dravidian, Odia) */
  finalSchwa: boolean;
  /** anusvara at the end of a word: nasalisation (n) or a full m (Dravidian) */
  finalAnusvara: string;
}

const BLOCKS: readonly Block[] = [
  { base: 0x0900, inherent: 'a', finalSchwa: false, finalAnusvara: 'n' }, // Devanagari
  { base: 0x0980, inherent: 'o', finalSchwa: false, finalAnusvara: 'n' }, // Bengali, Assamese
  { base: 0x0a00, inherent: 'a', finalSchwa: false, finalAnusvara: 'n' }, // Gurmukhi
  { base: 0x0a80, inherent: 'a', finalSchwa: false, finalAnusvara: 'n' }, // Gujarati
  { base: 0x0b00, inherent: 'a', finalSchwa: true, finalAnusvara: 'n' }, // Oriya
  { base: 0x0b80, inherent: 'a', finalSchwa: true, finalAnusvara: 'm' }, // Tamil
  { base: 0x0c00, inherent: 'a', finalSchwa: true, finalAnusvara: 'm' }, // Telugu
  { base: 0x0c80, inherent: 'a', finalSchwa: true, finalAnusvara: 'm' }, // Kannada
  { base: 0x0d00, inherent: 'a', finalSchwa: true, finalAnusvara: 'm' }, // Malayalam
];

// Offsets inside a block.
// Candrabindu, anusvara, visarga; Gurmukhi tippi (0x70) is a nasal like the anusvara, addak (0x71) doubles.
const SIGNS: Readonly<Record<number, string>> = { 0x01: 'n', 0x02: 'n', 0x03: 'h', 0x70: 'n' };
const ANUSVARA = 0x02;
const VIRAMA = 0x4d;
const NUKTA = 0x3c;
const VOWELS: Readonly<Record<number, string>> = {
  0x05: 'a',
  0x06: 'a',
  0x07: 'i',
  0x08: 'i',
  0x09: 'u',
  0x0a: 'u',
  0x0b: 'ri',
  0x0c: 'li',
  0x0d: 'e',
  0x0e: 'e',
  0x0f: 'e',
  0x10: 'ai',
  0x11: 'o',
  0x12: 'o',
  0x13: 'o',
  0x14: 'au',
  0x60: 'ri',
  0x61: 'li',
};
const MATRAS: Readonly<Record<number, string>> = {
  0x3e: 'a',
  0x3f: 'i',
  0x40: 'i',
  0x41: 'u',
  0x42: 'u',
  0x43: 'ri',
  0x44: 'ri',
  0x45: 'e',
  0x46: 'e',
  0x47: 'e',
  0x48: 'ai',
  0x49: 'o',
  0x4a: 'o',
  0x4b: 'o',
  0x4c: 'au',
  0x62: 'li',
  0x63: 'li',
};
const CONSONANTS: Readonly<Record<number, string>> = {
  0x15: 'k',
  0x16: 'kh',
  0x17: 'g',
  0x18: 'gh',
  0x19: 'ng',
  0x1a: 'ch',
  0x1b: 'chh',
  0x1c: 'j',
  0x1d: 'jh',
  0x1e: 'ny',
  0x1f: 't',
  0x20: 'th',
  0x21: 'd',
  0x22: 'dh',
  0x23: 'n',
  0x24: 't',
  0x25: 'th',
  0x26: 'd',
  0x27: 'dh',
  0x28: 'n',
  0x29: 'n',
  0x2a: 'p',
  0x2b: 'ph',
  0x2c: 'b',
  0x2d: 'bh',
  0x2e: 'm',
  0x2f: 'y',
  0x30: 'r',
  0x31: 'r',
  0x32: 'l',
  0x33: 'l',
  0x34: 'l',
  0x35: 'v',
  0x36: 'sh',
  0x37: 'sh',
  0x38: 's',
  0x39: 'h',
  0x58: 'q',
  0x59: 'kh',
  0x5a: 'gh',
  0x5b: 'z',
  0x5c: 'r',
  0x5d: 'rh',
  0x5e: 'f',
  0x5f: 'y',
  0x4e: 't', // Bengali khanda ta
};
// A consonant followed by the nukta sign becomes another consonant (Hindi/Urdu loan sounds).
const NUKTA_FORMS: Readonly<Record<number, string>> = {
  0x15: 'q',
  0x16: 'kh',
  0x17: 'gh',
  0x1c: 'z',
  0x21: 'r',
  0x22: 'rh',
  0x2b: 'f',
  0x2f: 'y',
};

function blockOf(cp: number): Block | undefined {
  return BLOCKS.find((b) => cp >= b.base && cp < b.base + 0x80);
}

export const indicStep: Step = (chars, i, out) => {
  const cp = chars[i]!.codePointAt(0)!;
  const block = blockOf(cp);
  if (!block) return 0;
  const off = cp - block.base;
  const at = (k: number): number | undefined => {
    const c = chars[k];
    if (c === undefined) return undefined;
    const x = c.codePointAt(0)! - block.base;
    return x >= 0 && x < 0x80 ? x : undefined;
  };
  const cons = CONSONANTS[off];
  if (cons !== undefined) {
    let used = 1;
    let sound = cons;
    if (at(i + 1) === NUKTA) {
      sound = NUKTA_FORMS[off] ?? cons;
      used++;
    }
    const next = at(i + used);
    out.push(sound);
    if (next === VIRAMA) return used + 1;
    const matra = next !== undefined ? MATRAS[next] : undefined;
    if (matra !== undefined) {
      out.push(matra);
      return used + 1;
    }
    // The inherent vowel, except at the end of a word in the languages that drop it.
    const wordGoesOn =
      next !== undefined || (chars[i + used] !== undefined && /\p{L}/u.test(chars[i + used]!));
    if (wordGoesOn || block.finalSchwa) out.push(block.inherent);
    return used;
  }
  if (off === ANUSVARA && at(i + 1) === undefined) {
    out.push(block.finalAnusvara);
    return 1;
  }
  const v = VOWELS[off] ?? MATRAS[off] ?? SIGNS[off];
  if (v !== undefined) out.push(v);
  return 1;
};
