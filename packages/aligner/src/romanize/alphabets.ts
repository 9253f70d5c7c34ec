// Cyrillic and Greek letters to Latin (letter by letter, close to the common passport/ISO 9-like
// transcriptions uroman uses for these scripts). Input is lower-cased and accent-stripped beforehand.
import type { Step } from './abjads.ts';

const CYRILLIC: Readonly<Record<string, string>> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'yo',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  // Ukrainian, Belarusian
  і: 'i',
  ї: 'yi',
  є: 'ye',
  ґ: 'g',
  ў: 'u',
  // Serbian, Macedonian
  ђ: 'dj',
  ј: 'j',
  љ: 'lj',
  њ: 'nj',
  ћ: 'c',
  џ: 'dz',
  ѓ: 'gj',
  ќ: 'kj',
  ѕ: 'dz',
  // Kazakh, Kyrgyz, Tatar, Bashkir, Mongolian
  ә: 'a',
  ғ: 'gh',
  қ: 'q',
  ң: 'ng',
  ө: 'o',
  ұ: 'u',
  ү: 'u',
  һ: 'h',
  җ: 'j',
  ҙ: 'z',
  ҫ: 's',
  ҡ: 'q',
  ӊ: 'ng',
};

const GREEK: Readonly<Record<string, string>> = {
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'i',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
};

// Modern Greek digraphs whose sound is one vowel or a different consonant.
const GREEK_PAIRS: Readonly<Record<string, string>> = {
  ου: 'ou',
  αι: 'e',
  ει: 'i',
  οι: 'i',
  μπ: 'b',
  ντ: 'd',
  γκ: 'g',
  γγ: 'ng',
  αυ: 'av',
  ευ: 'ev',
};

export const cyrillicStep: Step = (chars, i, out) => {
  const m = CYRILLIC[chars[i]!];
  if (m === undefined) return 0;
  out.push(m);
  return 1;
};

export const greekStep: Step = (chars, i, out) => {
  const c = chars[i]!;
  if (GREEK[c] === undefined) return 0;
  const pair = GREEK_PAIRS[c + (chars[i + 1] ?? '')];
  if (pair !== undefined) {
    out.push(pair);
    return 2;
  }
  out.push(GREEK[c]!);
  return 1;
};
