// Transcript normalisation: the user's words stay as written (SourceWord), the acoustic model gets
// normalised units (ModelToken), and every unit points back to the word it came from.
//
// What is a word: a run of characters between whitespace (any Unicode space) that holds at least one letter or digit. Tokens of punctuation or symbols only ("—", "?",
// a standalone Quranic pause mark ۛ, "۞") and Quranic verse numbers (﴿١﴾, ۝١٢) are not words: they
// are not spoken, so they never come back as not_found and do not lower coverage.
//
// Policies for the pocketsphinx dictionaries we ship (documented in docs/formats.md, "Text"):
// - English (CMU dictionary): lower case; apostrophes kept inside the word ("don't", "man's");
//   hyphenated compounds split ("test-run" -> "test" "run") unless `hasWord` says the whole exists.
// - French (the model's dictionary has "l'", "d'", "qu'", "jusqu'" entries and many hyphenated
//   words): elisions split after the apostrophe ("l'homme" -> "l'" "homme"; "aujourd'hui" stays);
//   hyphenated words kept whole unless `hasWord` says the whole is missing.
import { ALEF_WASLA, arabicMatchForm, arabicPlain, arabicPronunciationForm, asciiDigits } from './arabic.ts';
import { decomposePresentationForms, isArabicChar } from './arabic.ts';
import type { InputKind } from '@tazamun/contracts/alignment-options';
import type { LanguageInfo } from './languages.ts';
import { resolveIpaLanguage, resolveLanguage } from './languages.ts';
import { numberToWords } from './numbers.ts';

export interface SourceWord {
  index: number;
  text: string;
  charStart: number;
  charEnd: number;
}

export interface ModelToken {
  text: string;
  wordIndex: number;
}

export interface NormalizeOptions {
  normalize: boolean;
  numbersToWords: boolean;
  removeFillers: boolean;
  inputKind: InputKind;
  keepDiacritics: boolean;
  /**
   * Optional lexicon lookup (the acoustic model's dictionary). When given, a hyphenated compound is
   * kept whole only if the lexicon has it, else split at the hyphens.
   */
  hasWord?: (form: string) => boolean;
}

export const DEFAULT_NORMALIZE_OPTIONS: NormalizeOptions = {
  normalize: true,
  numbersToWords: true,
  removeFillers: false,
  inputKind: 'orthography',
  keepDiacritics: true,
};

// JS \s covers the Unicode spaces, NBSP, U+2028/9, U+3000 and U+FEFF. A zero-width space is not a
// separator: it is removed from inside the word like the other invisible characters.
const WORD_RE = /\S+/g;
// Control and format characters: bidi marks/overrides/isolates, ZWJ/ZWNJ, soft hyphen, BOM, ...
const INVISIBLE_RE = /[\p{Cc}\p{Cf}]/gu;
const HAS_WORD_CHAR = /[\p{L}\p{N}]/u;
// ﴾١﴿ / ﴿١﴾ (ornate parentheses, either order) or ۝١ (end-of-ayah sign): a verse number, not recited.
const VERSE_NUMBER_RE = /^(?=.*[\u06DD\uFD3E\uFD3F])[\u06DD\uFD3E\uFD3F\d\u0660-\u0669\u06F0-\u06F9]+$/;
const APOSTROPHES_RE = /[’‘ʼ`´]/g;
const DASHES_RE = /[\u2010-\u2015\u2212]/g;

const FILLERS: Readonly<Record<string, ReadonlySet<string>>> = {
  eng: new Set(['uh', 'um', 'uhm', 'umm', 'er', 'erm', 'ah', 'eh', 'hmm', 'hm', 'mm', 'mmm', 'mhm']),
  fra: new Set(['euh', 'euhm', 'heu', 'hum', 'hmm', 'mmh', 'mm', 'bah', 'ben']),
  ara: new Set(['اه', 'آه', 'أه', 'امم', 'إمم', 'ممم', 'مم', 'ااا', 'آآ', 'همم']),
};

const EN_ABBREVIATIONS: Readonly<Record<string, string>> = {
  'mr.': 'mister',
  'mrs.': 'missus',
  'ms.': 'miz',
  'dr.': 'doctor',
  'prof.': 'professor',
  'jr.': 'junior',
  'sr.': 'senior',
  'mt.': 'mount',
  'ave.': 'avenue',
  'gen.': 'general',
  'capt.': 'captain',
  'sgt.': 'sergeant',
  'lt.': 'lieutenant',
  'col.': 'colonel',
  'gov.': 'governor',
  'rev.': 'reverend',
  'vs.': 'versus',
  'etc.': 'et cetera',
  'approx.': 'approximately',
  'dept.': 'department',
  'inc.': 'incorporated',
  'ltd.': 'limited',
  'jan.': 'january',
  'feb.': 'february',
  'aug.': 'august',
  'sept.': 'september',
  'oct.': 'october',
  'nov.': 'november',
  'dec.': 'december',
  mr: 'mister',
  mrs: 'missus',
  dr: 'doctor',
};

const FR_ABBREVIATIONS: Readonly<Record<string, string>> = {
  'm.': 'monsieur',
  mm: 'messieurs',
  'mm.': 'messieurs',
  mme: 'madame',
  'mme.': 'madame',
  mmes: 'mesdames',
  mlle: 'mademoiselle',
  'mlle.': 'mademoiselle',
  dr: 'docteur',
  'dr.': 'docteur',
  pr: 'professeur',
  'pr.': 'professeur',
  st: 'saint',
  'st.': 'saint',
  ste: 'sainte',
  'ste.': 'sainte',
  'etc.': 'et cetera',
  'av.': 'avenue',
  bd: 'boulevard',
  'bd.': 'boulevard',
};

// Symbols that are read aloud when they stand alone or next to a number ("rock & roll", "50 %",
// "5 €", "$5"). Per language; a symbol not listed here is silent punctuation.
const SPOKEN_SYMBOLS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  eng: {
    '&': 'and',
    '%': 'percent',
    '+': 'plus',
    '=': 'equals',
    '@': 'at',
    '°': 'degrees',
    $: 'dollars',
    '€': 'euros',
    '£': 'pounds',
  },
  fra: {
    '&': 'et',
    '%': 'pour cent',
    '+': 'plus',
    '=': 'égale',
    '@': 'arobase',
    '°': 'degrés',
    $: 'dollars',
    '€': 'euros',
    '£': 'livres',
  },
  ara: { '%': 'في المئة', '+': 'زائد', '=': 'يساوي', $: 'دولار', '€': 'يورو', '£': 'جنيه' },
};
const CURRENCY = new Set(['$', '€', '£']);

function spokenSymbols(lang: string | LanguageInfo | undefined): Readonly<Record<string, string>> {
  if (!lang) return {};
  let info: LanguageInfo;
  try {
    info = typeof lang === 'string' ? resolveLanguage(lang) : lang;
  } catch {
    return {};
  }
  return SPOKEN_SYMBOLS[info.routes[0] === 'arabic-rules' ? 'ara' : info.iso3] ?? {};
}

const FR_ELISION = /^(l|d|j|m|t|s|n|c|ç|qu|jusqu|lorsqu|puisqu|quoiqu)'(.+)$/;
const EN_KEEP_LEADING_APOSTROPHE = new Set(["'em", "'bout", "'til", "'cause", "'n", "'tis", "'twas"]);

interface Ctx {
  info: LanguageInfo;
  lang: string; // iso3, Arabic varieties folded to 'ara'
  arabic: boolean;
  opts: NormalizeOptions;
  nextWord: string | undefined;
}

/**
 * Whitespace-separated words of the original text that hold a letter or a digit. With a language,
 * a token made only of symbols that language reads aloud ("&", "%", "€") is a word too.
 */
/** `lang`: a code, or the language the caller accepted already (text/languages.ts `acceptLanguage`). */
export function splitWords(text: string, lang?: string | LanguageInfo): SourceWord[] {
  const spoken = spokenSymbols(lang);
  const words: SourceWord[] = [];
  for (const m of text.matchAll(WORD_RE)) {
    const raw = m[0];
    const visible = raw.replace(INVISIBLE_RE, '');
    // the end-of-ayah sign ۝ is a format character: test the verse-number shape with it kept
    const withAyahSign = raw.replace(INVISIBLE_RE, (ch) => (ch === '\u06DD' ? ch : ''));
    const symbolWord = visible.length > 0 && [...visible].every((ch) => spoken[ch] !== undefined);
    if ((!HAS_WORD_CHAR.test(visible) && !symbolWord) || VERSE_NUMBER_RE.test(withAyahSign)) continue;
    const start = m.index ?? 0;
    words.push({ index: words.length, text: raw, charStart: start, charEnd: start + raw.length });
  }
  return words;
}

function lower(s: string, info: LanguageInfo): string {
  if (info.iso1 === 'tr' || info.iso1 === 'az') return s.toLocaleLowerCase(info.iso1);
  return s.toLowerCase();
}

function stripEdges(s: string): string {
  return s.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');
}

function numberOrPieces(piece: string, ctx: Ctx): string[] {
  if (ctx.opts.numbersToWords && /\d/.test(piece)) {
    const words = numberToWords(piece, ctx.lang);
    if (words !== null) {
      // n2words joins compounds with hyphens (forty-eight, quatre-vingts): the dictionaries have the
      // parts, so the parts are the units.
      return lower(words, ctx.info)
        .split(/[\s-]+/)
        .filter(Boolean);
    }
  }
  return [piece];
}

function splitHyphens(word: string, ctx: Ctx): string[] {
  if (!word.includes('-')) return [word];
  const parts = word.split('-').filter(Boolean);
  if (parts.length <= 1) return parts;
  if (ctx.opts.hasWord) return ctx.opts.hasWord(word) ? [word] : parts;
  return ctx.lang === 'fra' ? [word] : parts;
}

function englishPiece(piece: string): string[] {
  let p = piece;
  if (p.startsWith("'") && !EN_KEEP_LEADING_APOSTROPHE.has(p)) p = p.replace(/^'+/, '');
  // a trailing apostrophe is a closing quote, or the possessive of a plural in s (students')
  if (p.endsWith("'") && !/[^s]s'$/.test(p)) p = p.replace(/'+$/, '');
  return p ? [p] : [];
}

function frenchPiece(piece: string): string[] {
  let p = piece.replace(/^'+|'+$/g, '');
  const out: string[] = [];
  for (let m = FR_ELISION.exec(p); m; m = FR_ELISION.exec(p)) {
    out.push(`${m[1]}'`);
    p = m[2] ?? '';
  }
  if (p) out.push(p);
  return out;
}

// English "10:05" -> ten oh five, "3:00" -> three o'clock; French "10h30" / "10:30" -> dix heures trente.
function clockWords(s: string, ctx: Ctx): string[] | null {
  const m = ctx.lang === 'fra' ? /^(\d{1,2})(?:h|:)(\d{2})?$/.exec(s) : /^(\d{1,2}):(\d{2})$/.exec(s);
  if (!m || (ctx.lang !== 'eng' && ctx.lang !== 'fra')) return null;
  const h = Number(m[1]);
  const min = m[2] === undefined ? 0 : Number(m[2]);
  if (h > 24 || min > 59) return null;
  const say = (n: number): string => numberToWords(String(n), ctx.lang) ?? String(n);
  let out: string;
  if (ctx.lang === 'eng') {
    if (min === 0) out = `${say(h)} o'clock`;
    else out = `${say(h)} ${min < 10 ? 'oh ' : ''}${say(min)}`;
  } else {
    out = `${h === 1 ? 'une' : say(h)} ${h <= 1 ? 'heure' : 'heures'}${min ? ` ${say(min)}` : ''}`;
  }
  return out.split(/[\s-]+/).filter(Boolean);
}

function normalizeWord(raw: string, ctx: Ctx): string[] {
  const { opts, info } = ctx;
  let s = raw.replace(INVISIBLE_RE, '');
  if (ctx.arabic || /[\uFB50-\uFDFF\uFE70-\uFEFF]/.test(s)) s = decomposePresentationForms(s);
  s = asciiDigits(s.normalize('NFC'));

  if (opts.inputKind === 'ipa') {
    const ipa = s.replace(/^[/[]+|[/\]]+$/g, '');
    return ipa ? [ipa] : [];
  }
  if (!opts.normalize) {
    const bare = stripEdges(s);
    if (opts.numbersToWords && /^\d[\d.,]*%?$/.test(bare)) return numberOrPieces(bare, ctx);
    return s ? [s] : [];
  }

  s = s.replace(APOSTROPHES_RE, "'").replace(DASHES_RE, '-');
  const lowered = lower(s, info);

  // Abbreviations are looked up before the final period is stripped.
  if (ctx.lang === 'eng') {
    const bare = lowered.replace(/^[("'[]+|[)"',;:!?\]]+$/g, '');
    if (bare === 'st.' || bare === 'st') {
      const next = ctx.nextWord?.replace(/^\P{L}+/u, '') ?? '';
      return [/^\p{Lu}/u.test(next) ? 'saint' : 'street'];
    }
    const ab = EN_ABBREVIATIONS[bare];
    if (ab) return ab.split(' ');
  } else if (ctx.lang === 'fra') {
    const bare = lowered.replace(/^[("'[«]+|[)"',;:!?\]»]+$/g, '');
    // "M." is monsieur only when written with the capital (m. may end a sentence word)
    const ab = bare === 'm.' && !s.startsWith('M') ? undefined : FR_ABBREVIATIONS[bare];
    if (ab) return ab.split(' ');
  }

  const spoken = SPOKEN_SYMBOLS[ctx.lang] ?? {};
  const bareSym = lowered.replace(/^[("'[«]+|[)"',;:!?\]»]+$/g, '');
  if (bareSym && [...bareSym].every((ch) => spoken[ch] !== undefined)) {
    return [...bareSym].flatMap((ch) => (spoken[ch] ?? '').split(' '));
  }
  // currency before or after a number: $5, 5€, 5$ ; clock times: 10:05, 10h30
  if (opts.numbersToWords) {
    const cur = /^([$€£])(\d[\d.,]*)$/.exec(bareSym) ?? /^(\d[\d.,]*)([$€£])$/.exec(bareSym);
    if (cur) {
      const sym = (CURRENCY.has(cur[1] ?? '') ? cur[1] : cur[2]) ?? '';
      const amount = (CURRENCY.has(cur[1] ?? '') ? cur[2] : cur[1]) ?? '';
      const words = numberToWords(amount, ctx.lang);
      const unit = spoken[sym];
      if (words !== null && unit) {
        const singular = ctx.lang === 'eng' && /^0*1$/.test(amount) ? unit.replace(/s$/, '') : unit;
        return `${lower(words, info)} ${singular}`.split(/[\s-]+/).filter(Boolean);
      }
    }
    const clockTime = clockWords(bareSym, ctx);
    if (clockTime) return clockTime;
  }

  let word = lowered;
  if (ctx.arabic) {
    word = opts.keepDiacritics ? arabicPronunciationForm(word) : arabicPlain(word);
    word = word.replace(new RegExp(ALEF_WASLA, 'g'), 'ا');
  }

  // Split at punctuation that is not part of a word: keep apostrophes and hyphens between letters,
  // and . , between digits (numbers), % after digits.
  const pieces = word
    .replace(/(?<![\p{L}\p{M}])'|'(?![\p{L}\p{M}])/gu, (m, offset: number) =>
      // keep a trailing possessive apostrophe for English (students'), drop other edge apostrophes
      (ctx.lang === 'eng' && offset === word.length - 1 && /s$/.test(word.slice(0, offset))) ||
      (ctx.lang === 'eng' &&
        offset === 0 &&
        EN_KEEP_LEADING_APOSTROPHE.has(stripEdges(word).replace(/^/, "'")))
        ? m
        : ' ',
    )
    .replace(/(?<![\p{L}\p{M}\p{N}])-|-(?![\p{L}\p{M}\p{N}])/gu, ' ')
    .replace(/(?<!\d)[.,]|[.,](?!\d)/g, ' ')
    .replace(/(?<!\d)%/g, ' ')
    .replace(/[^\p{L}\p{M}\p{N}'\-.,%]+/gu, ' ')
    .split(' ')
    .filter(Boolean);

  const out: string[] = [];
  for (const piece of pieces) {
    for (const unit of numberOrPieces(piece, ctx)) {
      let parts: string[];
      if (/\d/.test(unit) || /^[\d.,%]+$/.test(unit)) parts = [unit.replace(/[.,%]+$/, '')];
      else if (ctx.lang === 'eng') parts = englishPiece(unit).flatMap((p) => splitHyphens(p, ctx));
      else if (ctx.lang === 'fra') parts = splitHyphens(unit, ctx).flatMap(frenchPiece);
      else parts = [unit];
      for (const p of parts) {
        if (!p) continue;
        if (opts.removeFillers && FILLERS[ctx.lang]?.has(ctx.arabic ? arabicMatchForm(p) : p)) continue;
        out.push(p);
      }
    }
  }
  return out;
}

/**
 * Splits the transcript into words and normalises each for the acoustic model. Offsets are UTF-16
 * code units into `text` as given (not NFC-normalised), so `text.slice(charStart, charEnd)` is the word.
 * `lang` is a code, or the language the caller accepted already (`AcceptedLanguage.text`, which the
 * engine passes so the code is resolved once per alignment).
 */
export function normalizeTranscript(
  text: string,
  lang: string | LanguageInfo,
  opts?: Partial<NormalizeOptions>,
): { words: SourceWord[]; tokens: ModelToken[]; processedText: string } {
  const options: NormalizeOptions = { ...DEFAULT_NORMALIZE_OPTIONS, ...(opts ?? {}) };
  // IPA does not depend on the language: any ISO 639-3 code will do.
  const info =
    typeof lang !== 'string'
      ? lang
      : options.inputKind === 'ipa'
        ? resolveIpaLanguage(lang)
        : resolveLanguage(lang);
  const arabicLang = info.routes[0] === 'arabic-rules';
  const words = splitWords(text, info);
  const tokens: ModelToken[] = [];
  for (const w of words) {
    const ctx: Ctx = {
      info,
      lang: arabicLang ? 'ara' : info.iso3,
      arabic: arabicLang || [...w.text].some(isArabicChar),
      opts: options,
      nextWord: words[w.index + 1]?.text,
    };
    for (const t of normalizeWord(w.text, ctx)) tokens.push({ text: t, wordIndex: w.index });
  }
  return { words, tokens, processedText: tokens.map((t) => t.text).join(' ') };
}

/**
 * A comparison key for a word (WER, matching a user's edit to a word): NFC, lower case, invisible
 * characters and punctuation removed, Arabic folded to its matching form (no diacritics, one alef).
 */
export function matchKey(word: string, lang: string): string {
  const info = resolveLanguage(lang);
  let s = asciiDigits(decomposePresentationForms(word.replace(INVISIBLE_RE, '')).normalize('NFC'));
  s = lower(s, info).replace(APOSTROPHES_RE, "'");
  if (info.routes[0] === 'arabic-rules' || [...s].some(isArabicChar)) s = arabicMatchForm(s);
  return s.replace(/[\p{P}\p{S}\p{Z}]/gu, '');
}
