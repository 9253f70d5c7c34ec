// Arabic-script (Arabic, Persian, Urdu and their neighbours) and Hebrew letters to Latin letters, for the
// MMS aligner's a-z vocabulary. Written for this project after uroman's approach: consonants map to their
// usual Latin transcription, short-vowel marks give vowels when the text is vowelled, and the long-vowel
// letters waw/yeh (vav/yod) read as vowels between consonants and as glides elsewhere. Hamza and ayin
// become an apostrophe, a letter the model has.

export type Step = (chars: readonly string[], i: number, out: string[]) => number;

const ARABIC: Readonly<Record<string, string>> = {
  ا: 'a',
  أ: 'a',
  إ: 'i',
  آ: 'a',
  ٱ: 'a',
  ء: "'",
  ؤ: "'",
  ئ: "'",
  ب: 'b',
  ت: 't',
  ث: 'th',
  ج: 'j',
  ح: 'h',
  خ: 'kh',
  د: 'd',
  ذ: 'dh',
  ر: 'r',
  ز: 'z',
  س: 's',
  ش: 'sh',
  ص: 's',
  ض: 'd',
  ط: 't',
  ظ: 'z',
  ع: "'",
  غ: 'gh',
  ف: 'f',
  ق: 'q',
  ك: 'k',
  ل: 'l',
  م: 'm',
  ن: 'n',
  ه: 'h',
  ة: 'a',
  ى: 'a',
  // Persian and Urdu
  پ: 'p',
  چ: 'ch',
  ژ: 'zh',
  گ: 'g',
  ک: 'k',
  ۀ: 'h',
  ٹ: 't',
  ڈ: 'd',
  ڑ: 'r',
  ں: 'n',
  ھ: 'h',
  ہ: 'h',
  ے: 'e',
  ۓ: 'e',
  // short vowels and other marks
  '\u064E': 'a',
  '\u064F': 'u',
  '\u0650': 'i',
  '\u064B': 'an',
  '\u064C': 'un',
  '\u064D': 'in',
  '\u0670': 'a',
  '\u0652': '',
  '\u0640': '',
};

const ARABIC_MARKS = new Set([
  '\u064E',
  '\u064F',
  '\u0650',
  '\u064B',
  '\u064C',
  '\u064D',
  '\u0670',
  '\u0651',
  '\u0652',
]);
const ARABIC_VOWEL_AFTER = new Set(['ا', 'أ', 'إ', 'آ', 'ى', ...ARABIC_MARKS]);
const WAW = new Set(['و']);
const YEH = new Set(['ي', 'ی', 'ې', 'ۍ', 'ێ']);

const ALEFS = new Set(['ا', 'ٱ']);
const SUN_LETTERS = new Set([...'تثدذرزسشصضطظلن']);
/** Index of the next letter from i on, skipping vowel marks. */
function nextLetter(chars: readonly string[], i: number): number {
  let k = i;
  while (k < chars.length && ARABIC_MARKS.has(chars[k]!)) k++;
  return k;
}

const isArabicBlock = (c: string): boolean =>
  /[\u0600-\u06FF\u0750-\u077F\uFB50-\uFDFF\uFE70-\uFEFF]/u.test(c);

export const arabicStep: Step = (chars, i, out) => {
  const c = chars[i]!;
  if (!isArabicBlock(c)) return 0;
  const next = chars[i + 1];
  const initial = i === 0 || !isArabicBlock(chars[i - 1]!);
  if (WAW.has(c) || YEH.has(c)) {
    // A glide at the start of the word or before a vowel; a long vowel after a consonant.
    const glide = initial || (next !== undefined && ARABIC_VOWEL_AFTER.has(next));
    out.push(WAW.has(c) ? (glide ? 'w' : 'u') : glide ? 'y' : 'i');
    return 1;
  }
  if (c === '\u0651') {
    // Shadda doubles the consonant it sits on; NFC may put it after that consonant's vowel mark.
    let k = out.length - 1;
    while (k >= 0 && /^[aiu]n?$/.test(out[k]!) && ARABIC_MARKS.has(chars[i - (out.length - k)] ?? '')) k--;
    if (k >= 0 && out[k]) out.splice(k + 1, 0, out[k]!.slice(-1));
    return 1;
  }
  if (c === 'ل' && i === 1 && ALEFS.has(chars[0]!) && SUN_LETTERS.has(chars[nextLetter(chars, 2)] ?? '')) {
    // The article before a sun letter assimilates: الشمس is ash-shams, not al-shams. Unless a written
    // shadda will double the sun letter, its doubling is emitted here in the lam's place.
    const sun = nextLetter(chars, 2);
    let k = sun + 1;
    while (k < chars.length && ARABIC_MARKS.has(chars[k]!) && chars[k] !== '\u0651') k++;
    if (chars[k] !== '\u0651') out.push(ARABIC[chars[sun]!]!);
    return 1;
  }
  const m = ARABIC[c];
  if (m !== undefined) {
    out.push(m);
    return 1;
  }
  return /\p{M}/u.test(c) ? 1 : 0;
};

const HEBREW: Readonly<Record<string, string>> = {
  א: "'",
  ב: 'b',
  ג: 'g',
  ד: 'd',
  ה: 'h',
  ז: 'z',
  ח: 'kh',
  ט: 't',
  כ: 'k',
  ך: 'k',
  ל: 'l',
  מ: 'm',
  ם: 'm',
  נ: 'n',
  ן: 'n',
  ס: 's',
  ע: "'",
  פ: 'p',
  ף: 'f',
  צ: 'ts',
  ץ: 'ts',
  ק: 'k',
  ר: 'r',
  ש: 'sh',
  ת: 't',
  // niqqud
  '\u05B7': 'a',
  '\u05B8': 'a',
  '\u05B2': 'a',
  '\u05B6': 'e',
  '\u05B5': 'e',
  '\u05B1': 'e',
  '\u05B4': 'i',
  '\u05B9': 'o',
  '\u05BA': 'o',
  '\u05B3': 'o',
  '\u05BB': 'u',
};

export const hebrewStep: Step = (chars, i, out) => {
  const c = chars[i]!;
  if (!/[\u0590-\u05FF\uFB1D-\uFB4F]/u.test(c)) return 0;
  const initial = i === 0 || !/[\u0590-\u05FF]/u.test(chars[i - 1]!);
  if (c === 'ו') {
    const next = chars[i + 1];
    out.push(next === '\u05BC' ? 'u' : next === '\u05B9' ? 'o' : initial ? 'v' : 'o');
    return next === '\u05BC' || next === '\u05B9' ? 2 : 1;
  }
  if (c === 'י') {
    out.push(initial ? 'y' : 'i');
    return 1;
  }
  const m = HEBREW[c];
  if (m !== undefined) out.push(m);
  return 1;
};
