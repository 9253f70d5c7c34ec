// Ethiopic (Ge'ez abugida: Amharic, Tigrinya, ...) and Thai to Latin.
// Ethiopic syllables come in rows of eight: the consonant is the row (code point >> 3) and the vowel the
// column (ä u i a e ə o wa). Thai writes some vowels before the consonant they follow in speech; those
// are held back and emitted after the next consonant. Tone marks carry no letter.
import type { Step } from './abjads.ts';

// Consonant of each eight-syllable row from U+1200 to U+1357.
// prettier-ignore
const ETHIOPIC_ROWS = [
  'h', 'l', 'h', 'm', 's', 'r', 's', 'sh', 'q', 'qw', 'q', 'qw', 'b', 'v', 't', 'ch',
  'h', 'hw', 'n', 'ny', "'", 'k', 'kw', 'h', 'hw', 'w', "'", 'z', 'zh', 'y', 'd', 'd',
  'j', 'g', 'gw', 'ng', 't', 'ch', 'p', 'ts', 'ts', 'f', 'p',
];
// The first order ä is an open central vowel, nearer a than e; the sixth (ə) is often silent.
const ETHIOPIC_VOWELS = ['a', 'u', 'i', 'a', 'e', '', 'o', 'wa'];

export const ethiopicStep: Step = (chars, i, out) => {
  const cp = chars[i]!.codePointAt(0)!;
  if (cp < 0x1200 || cp > 0x137f) return 0;
  const row = ETHIOPIC_ROWS[(cp - 0x1200) >> 3];
  if (row !== undefined) out.push(row + ETHIOPIC_VOWELS[(cp - 0x1200) & 7]!);
  return 1;
};

// prettier-ignore
const THAI_CONSONANTS: Readonly<Record<string, string>> = {
  ก: 'k', ข: 'kh', ฃ: 'kh', ค: 'kh', ฅ: 'kh', ฆ: 'kh', ง: 'ng', จ: 'ch', ฉ: 'ch', ช: 'ch', ซ: 's',
  ฌ: 'ch', ญ: 'y', ฎ: 'd', ฏ: 't', ฐ: 'th', ฑ: 'th', ฒ: 'th', ณ: 'n', ด: 'd', ต: 't', ถ: 'th',
  ท: 'th', ธ: 'th', น: 'n', บ: 'b', ป: 'p', ผ: 'ph', ฝ: 'f', พ: 'ph', ฟ: 'f', ภ: 'ph', ม: 'm',
  ย: 'y', ร: 'r', ฤ: 'rue', ล: 'l', ฦ: 'lue', ว: 'w', ศ: 's', ษ: 's', ส: 's', ห: 'h', ฬ: 'l',
  อ: 'o', ฮ: 'h',
};
// prettier-ignore
const THAI_VOWELS: Readonly<Record<string, string>> = {
  'ะ': 'a', '\u0E31': 'a', 'า': 'a', 'ำ': 'am', '\u0E34': 'i', '\u0E35': 'i', '\u0E36': 'ue', '\u0E37': 'ue',
  '\u0E38': 'u', '\u0E39': 'u', 'ฯ': '', 'ๆ': '',
};
const THAI_LEADING: Readonly<Record<string, string>> = { เ: 'e', แ: 'ae', โ: 'o', ใ: 'ai', ไ: 'ai' };

export const thaiStep: Step = (chars, i, out) => {
  const c = chars[i]!;
  if (!/[\u0E00-\u0E7F]/u.test(c)) return 0;
  const lead = THAI_LEADING[c];
  if (lead !== undefined) {
    const cons = THAI_CONSONANTS[chars[i + 1] ?? ''];
    if (cons !== undefined) {
      out.push(cons, lead);
      return 2;
    }
    out.push(lead);
    return 1;
  }
  if (c === '\u0E4C') {
    // Thanthakhat silences the letter it sits on.
    out.pop();
    return 1;
  }
  const m = THAI_CONSONANTS[c] ?? THAI_VOWELS[c];
  if (m !== undefined) out.push(m);
  return 1;
};
