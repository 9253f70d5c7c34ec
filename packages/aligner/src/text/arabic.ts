// Arabic script facts shared by the normaliser and the letter-to-sound rules.

export const TATWEEL = '\u0640';
export const FATHATAN = '\u064B';
export const DAMMATAN = '\u064C';
export const KASRATAN = '\u064D';
export const FATHA = '\u064E';
export const DAMMA = '\u064F';
export const KASRA = '\u0650';
export const SHADDA = '\u0651';
export const SUKUN = '\u0652';
export const MADDA_ABOVE = '\u0653';
export const HAMZA_ABOVE = '\u0654';
export const HAMZA_BELOW = '\u0655';
export const DAGGER_ALIF = '\u0670';
export const ALEF_WASLA = '\u0671';
export const SMALL_HIGH_ROUNDED_ZERO = '\u06DF'; // the letter under it is not pronounced
export const SMALL_HIGH_UPRIGHT_RECT_ZERO = '\u06E0';
export const SMALL_WAW = '\u06E5'; // Uthmani: lengthens a preceding damma (ū)
export const SMALL_YEH = '\u06E6'; // Uthmani: lengthens a preceding kasra (ī)
export const QURANIC_SUKUN = '\u06E1'; // small high dotless head of khah, the Uthmani sukun

/** Harakat, tanwin, shadda, sukun, madda/hamza combining marks (U+064B-U+065F). */
export function isHaraka(ch: string): boolean {
  const c = ch.codePointAt(0) ?? 0;
  return c >= 0x064b && c <= 0x065f;
}

/** Quranic annotation signs U+06D6-U+06ED and the honorific marks U+0610-U+061A. */
export function isQuranicMark(ch: string): boolean {
  const c = ch.codePointAt(0) ?? 0;
  return (c >= 0x06d6 && c <= 0x06ed) || (c >= 0x0610 && c <= 0x061a);
}

/** Everything the plain (undiacritised) form drops: harakat, dagger alif, Quranic marks, tatweel. */
export function isArabicDiacritic(ch: string): boolean {
  return isHaraka(ch) || isQuranicMark(ch) || ch === DAGGER_ALIF || ch === TATWEEL;
}

/** Any character of the Arabic blocks (incl. supplement, extended-A and presentation forms). */
export function isArabicChar(ch: string): boolean {
  const c = ch.codePointAt(0) ?? 0;
  return (
    (c >= 0x0600 && c <= 0x06ff) ||
    (c >= 0x0750 && c <= 0x077f) ||
    (c >= 0x08a0 && c <= 0x08ff) ||
    (c >= 0xfb50 && c <= 0xfdff) ||
    (c >= 0xfe70 && c <= 0xfeff)
  );
}

/** Arabic-Indic (U+0660-0669) and Extended/Persian (U+06F0-06F9) digits to ASCII; ٫ and ٬ separators. */
export function asciiDigits(s: string): string {
  return s.replace(/[\u0660-\u0669\u06F0-\u06F9\u066B\u066C]/g, (ch) => {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '\u066B') return '.';
    if (ch === '\u066C') return ',';
    return String(c >= 0x06f0 ? c - 0x06f0 : c - 0x0660);
  });
}

/**
 * Presentation forms (ligatures such as lam-alef U+FEFB, contextual letter shapes) decomposed to the
 * base letters; the rest of the text is left as it is.
 */
export function decomposePresentationForms(s: string): string {
  return s.replace(/[\uFB50-\uFDFF\uFE70-\uFEFF]/g, (ch) => (ch === '\uFEFF' ? '' : ch.normalize('NFKC')));
}

/** The plain form: as the evaluation's `text_plain` (diacritics and marks removed, ٱ -> ا). */
export function arabicPlain(word: string): string {
  let out = '';
  for (const ch of word) {
    if (isArabicDiacritic(ch)) continue;
    out += ch === ALEF_WASLA ? 'ا' : ch;
  }
  return out;
}

/**
 * The matching form, for comparing words written with different conventions: plain, and the
 * letters people interchange folded together (hamza-on-alef forms and wasla -> ا, ى -> ي, ة -> ه).
 */
export function arabicMatchForm(word: string): string {
  return arabicPlain(word.normalize('NFC'))
    .replace(/[أإآٱ]/g, 'ا')
    .replace(/ى/g, 'ي')
    .replace(/ة/g, 'ه');
}

/**
 * The pronunciation form kept when diacritics matter: NFC, tatweel removed, Quranic marks dropped
 * except those that change the sound (small waw/yeh become long vowels, a letter under a "silent"
 * zero is removed, the Uthmani sukun becomes a sukun), dagger alif kept (the letter rules read it as ā).
 */
export function arabicPronunciationForm(word: string): string {
  const chars = [...decomposePresentationForms(word).normalize('NFC')];
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? '';
    if (ch === TATWEEL) continue;
    if (ch === SMALL_WAW) {
      out += 'و';
      continue;
    }
    if (ch === SMALL_YEH) {
      out += 'ي';
      continue;
    }
    if (ch === QURANIC_SUKUN) {
      out += SUKUN;
      continue;
    }
    if (ch === SMALL_HIGH_ROUNDED_ZERO || ch === SMALL_HIGH_UPRIGHT_RECT_ZERO) {
      // Drop the base letter this mark sits on (and its other marks written before this one).
      let j = out.length;
      while (j > 0 && isArabicDiacritic(out[j - 1] ?? '')) j--;
      out = out.slice(0, Math.max(0, j - 1));
      continue;
    }
    if (isQuranicMark(ch)) continue;
    out += ch;
  }
  return out;
}
