// Korean Hangul (syllables decomposed arithmetically into jamo, then the Revised Romanization of Korean),
// Japanese kana (Hepburn, with yoon digraphs, the small tsu and the long-vowel mark) and Chinese hanzi
// (Mandarin pinyin without tones from pinyin-pro's dictionary, MIT licence). Japanese kanji have no
// reading here: they are reported as not romanised, and a kana transcript should be given instead.
import { pinyin } from 'pinyin-pro';
import type { Step } from './abjads.ts';

const L = [
  'g',
  'kk',
  'n',
  'd',
  'tt',
  'r',
  'm',
  'b',
  'pp',
  's',
  'ss',
  '',
  'j',
  'jj',
  'ch',
  'k',
  't',
  'p',
  'h',
];
const V = [
  'a',
  'ae',
  'ya',
  'yae',
  'eo',
  'e',
  'yeo',
  'ye',
  'o',
  'wa',
  'wae',
  'oe',
  'yo',
  'u',
  'wo',
  'we',
  'wi',
  'yu',
  'eu',
  'ui',
  'i',
];
const T = [
  '',
  'k',
  'k',
  'k',
  'n',
  'n',
  'n',
  't',
  'l',
  'k',
  'm',
  'l',
  'l',
  'l',
  'p',
  'l',
  'm',
  'p',
  'p',
  't',
  't',
  'ng',
  't',
  't',
  'k',
  't',
  'p',
  't',
];

// A final consonant before a syllable that starts with the silent ieung is carried over (liaison).
// prettier-ignore
const T_BEFORE_VOWEL = [
  '', 'g', 'kk', 'ks', 'n', 'nj', 'n', 'd', 'r', 'lg', 'lm', 'lb', 'ls', 'lt', 'lp', 'r',
  'm', 'b', 'bs', 's', 'ss', 'ng', 'j', 'ch', 'k', 't', 'p', '',
];

const syllable = (c: string | undefined): number => {
  const cp = c === undefined ? -1 : c.codePointAt(0)!;
  return cp >= 0xac00 && cp <= 0xd7a3 ? cp - 0xac00 : -1;
};

export const hangulStep: Step = (chars, i, out) => {
  const s = syllable(chars[i]);
  if (s < 0) return 0;
  const next = syllable(chars[i + 1]);
  const liaison = next >= 0 && Math.floor(next / 588) === 11;
  const t = s % 28;
  out.push(L[Math.floor(s / 588)]! + V[Math.floor((s % 588) / 28)]! + (liaison ? T_BEFORE_VOWEL[t]! : T[t]!));
  return 1;
};

// Hiragana in Unicode order from U+3041; katakana is the same table at +0x60.
// prettier-ignore
const KANA = [
  'a', 'a', 'i', 'i', 'u', 'u', 'e', 'e', 'o', 'o',
  'ka', 'ga', 'ki', 'gi', 'ku', 'gu', 'ke', 'ge', 'ko', 'go',
  'sa', 'za', 'shi', 'ji', 'su', 'zu', 'se', 'ze', 'so', 'zo',
  'ta', 'da', 'chi', 'ji', 'tsu', 'tsu', 'zu', 'te', 'de', 'to', 'do',
  'na', 'ni', 'nu', 'ne', 'no',
  'ha', 'ba', 'pa', 'hi', 'bi', 'pi', 'fu', 'bu', 'pu', 'he', 'be', 'pe', 'ho', 'bo', 'po',
  'ma', 'mi', 'mu', 'me', 'mo',
  'ya', 'ya', 'yu', 'yu', 'yo', 'yo',
  'ra', 'ri', 'ru', 're', 'ro',
  'wa', 'wa', 'wi', 'we', 'wo', 'n', 'vu', 'ka', 'ke',
];
const SMALL_Y = new Set(['ゃ', 'ゅ', 'ょ', 'ャ', 'ュ', 'ョ']);
const SMALL_TSU = new Set(['っ', 'ッ']);

function kanaOf(c: string | undefined): string | undefined {
  if (c === undefined) return undefined;
  const cp = c.codePointAt(0)!;
  if (cp >= 0x3041 && cp <= 0x3096) return KANA[cp - 0x3041];
  if (cp >= 0x30a1 && cp <= 0x30f6) return KANA[cp - 0x30a1];
  return undefined;
}

export const kanaStep: Step = (chars, i, out) => {
  const c = chars[i]!;
  if (c === 'ー') {
    // The long-vowel mark repeats the vowel before it.
    const prev = out.join('').slice(-1);
    if (/[aeiou]/.test(prev)) out.push(prev);
    return 1;
  }
  if (SMALL_TSU.has(c)) {
    // The small tsu doubles the next consonant (っか -> kka, っち -> tchi).
    const next = kanaOf(chars[i + 1]);
    if (next && !/^[aeiou]/.test(next)) out.push(next.startsWith('ch') ? 't' : next[0]!);
    return 1;
  }
  let r = kanaOf(c);
  if (r === undefined) return 0;
  const next = chars[i + 1];
  if (next !== undefined && SMALL_Y.has(next) && r.endsWith('i')) {
    const y = kanaOf(next)!;
    // きゃ -> kya, but しゃ -> sha, ちゃ -> cha, じゃ -> ja (no y after sh, ch, j).
    r = /^(sh|ch|j)/.test(r) ? r.slice(0, -1) + y.slice(1) : r.slice(0, -1) + y;
    out.push(r);
    return 2;
  }
  out.push(r);
  return 1;
};

const isHan = (c: string): boolean => /\p{Script=Han}/u.test(c);

export const hanStep: Step = (chars, i, out) => {
  if (!isHan(chars[i]!)) return 0;
  let j = i;
  while (j < chars.length && isHan(chars[j]!)) j++;
  // Whole runs at once, so pinyin-pro can pick the reading of a polyphonic character from its word.
  const run = chars.slice(i, j).join('');
  const syl = pinyin(run, { toneType: 'none', type: 'array', nonZh: 'removed' }) as string[];
  for (const s of syl) out.push(s.replace(/ü/g, 'u').replace(/v/g, 'u'));
  return j - i;
};
