// Numbers written in digits, read out in words of the language (n2words, plus the reading habits the
// library does not cover: English years, digit-by-digit strings, ordinal suffixes, percent).
import * as ar from 'n2words/ar-SA';
import * as cs from 'n2words/cs-CZ';
import * as da from 'n2words/da-DK';
import * as de from 'n2words/de-DE';
import * as el from 'n2words/el-GR';
import * as en from 'n2words/en-US';
import * as es from 'n2words/es-ES';
import * as fa from 'n2words/fa-IR';
import * as fi from 'n2words/fi-FI';
import * as fr from 'n2words/fr-FR';
import * as he from 'n2words/he-IL';
import * as hi from 'n2words/hi-IN';
import * as hu from 'n2words/hu-HU';
import * as id from 'n2words/id-ID';
import * as it from 'n2words/it-IT';
import * as nb from 'n2words/nb-NO';
import * as nl from 'n2words/nl-NL';
import * as pl from 'n2words/pl-PL';
import * as pt from 'n2words/pt-PT';
import * as ro from 'n2words/ro-RO';
import * as ru from 'n2words/ru-RU';
import * as sv from 'n2words/sv-SE';
import * as sw from 'n2words/sw-KE';
import * as tr from 'n2words/tr-TR';
import * as uk from 'n2words/uk-UA';
import * as ur from 'n2words/ur-PK';
import * as vi from 'n2words/vi-VN';

interface Speller {
  toCardinal(value: string): string;
  toOrdinal(value: string): string;
}

// Keyed by ISO 639-3; Arabic varieties use the MSA number words.
const SPELLERS: Readonly<Record<string, Speller>> = {
  ara: ar,
  ces: cs,
  dan: da,
  deu: de,
  ell: el,
  eng: en,
  spa: es,
  fas: fa,
  fin: fi,
  fra: fr,
  heb: he,
  hin: hi,
  hun: hu,
  ind: id,
  ita: it,
  nob: nb,
  nld: nl,
  pol: pl,
  por: pt,
  ron: ro,
  rus: ru,
  swe: sv,
  swa: sw,
  tur: tr,
  ukr: uk,
  urd: ur,
  vie: vi,
};

const PERCENT: Readonly<Record<string, string>> = {
  eng: 'percent',
  fra: 'pour cent',
  ara: 'في المئة',
  deu: 'Prozent',
  spa: 'por ciento',
  ita: 'per cento',
  por: 'por cento',
};

/** Does this language have number words here (otherwise digits are left for eSpeak to read)? */
export function hasNumberWords(iso3: string, arabicVariety = false): boolean {
  return Boolean(SPELLERS[arabicVariety ? 'ara' : iso3]);
}

function digitByDigit(digits: string, speller: Speller): string {
  return [...digits].map((d) => speller.toCardinal(d)).join(' ');
}

function englishYear(n: number): string | null {
  if (n >= 1100 && n <= 1999) {
    const hi = Math.floor(n / 100);
    const lo = n % 100;
    if (lo === 0) return `${en.toCardinal(hi)} hundred`;
    return `${en.toCardinal(hi)} ${lo < 10 ? 'oh ' : ''}${en.toCardinal(lo)}`;
  }
  if (n >= 2010 && n <= 2099) return `twenty ${en.toCardinal(n % 100)}`;
  return null;
}

/**
 * The words for one numeric token, or null when the token is not a number this module reads.
 * Accepted: 1948, 1,000 (English grouping) / 1.000 and 2,5 (decimal comma languages), 2.5, -3,
 * 007 (digit by digit), ordinals (21st, 1er, 2e, 3ème, 2nd), 50%.
 */
export function numberToWords(token: string, iso3: string): string | null {
  const speller = SPELLERS[iso3];
  if (!speller) return null;
  let t = token.trim();
  let suffix = '';
  if (t.endsWith('%')) {
    t = t.slice(0, -1);
    suffix = PERCENT[iso3] ?? '%';
    if (suffix === '%') return null;
  }
  // Ordinals
  const ordEn = iso3 === 'eng' ? /^(\d+)(st|nd|rd|th)$/i.exec(t) : null;
  const ordFr = iso3 === 'fra' ? /^(\d+)(er|re|ère|e|è|ème|eme|nd|nde|d)$/i.exec(t) : null;
  const ord = ordEn ?? ordFr;
  if (ord?.[1] && Number(ord[1]) > 0) {
    if (iso3 === 'fra' && /^(re|ère)$/i.test(ord[2] ?? '') && ord[1] === '1') return 'première';
    if (iso3 === 'fra' && /^(nd|nde|d)$/i.test(ord[2] ?? '') && ord[1] === '2')
      return /e$/i.test(ord[2] ?? '') ? 'seconde' : 'second';
    return join(speller.toOrdinal(ord[1]), suffix);
  }
  const negative = /^[-−]/.test(t);
  if (negative) t = t.slice(1);
  if (!/^\d[\d.,]*$/.test(t) || /[.,]$/.test(t)) return null;

  const decimalComma = iso3 !== 'eng' && iso3 !== 'heb' && iso3 !== 'hin' && iso3 !== 'urd';
  let normalized: string;
  if (iso3 === 'eng' || !decimalComma) {
    if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)) normalized = t.replace(/,/g, '');
    else if (/^\d+(\.\d+)?$/.test(t)) normalized = t;
    else return null;
  } else if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(t)) {
    normalized = t.replace(/\./g, '').replace(',', '.');
  } else if (/^\d+(,\d+)?$/.test(t)) {
    normalized = t.replace(',', '.');
  } else if (/^\d+\.\d+$/.test(t)) {
    normalized = t;
  } else return null;

  const [intPart = '', fracPart] = normalized.split('.');
  // Leading zeros and long strings (phone numbers, codes) are read digit by digit.
  if ((intPart.length > 1 && intPart.startsWith('0')) || intPart.length > 15) {
    const digits = digitByDigit(intPart, speller);
    return join(negative ? `${speller.toCardinal('-1').split(' ')[0]} ${digits}` : digits, suffix);
  }
  if (iso3 === 'eng' && !negative && fracPart === undefined && intPart.length === 4) {
    const year = englishYear(Number(intPart));
    if (year) return join(year, suffix);
  }
  const words = speller.toCardinal(`${negative ? '-' : ''}${normalized}`);
  return join(words, suffix);
}

function join(words: string, suffix: string): string {
  return suffix ? `${words} ${suffix}` : words;
}
