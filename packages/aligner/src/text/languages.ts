// Languages the engine can align: every language eSpeak NG (the WASM build we ship) speaks, keyed by
// ISO 639-3, plus the Arabic varieties that are read with the Arabic rules. The table was written from
// the voice list of @echogarden/espeak-ng-emscripten 0.3.5 (`list_voices()`); languages.test.ts checks
// every `espeakVoice` below against that list so a package upgrade that drops a voice fails loudly.
//
// Written text needs a pronunciation route, so the hmm engine reads only the languages of this table.
// An IPA transcript does not depend on the language, and the MMS aligner reads any language through
// romanisation: for those, every ISO 639-3 code of the full table (the `iso-639-3` package, SIL's code
// tables) is accepted (acceptLanguage below).
import { iso6393 } from 'iso-639-3';
import type { EngineName, InputKind } from '@tazamun/contracts/alignment-options';
import { EngineError } from '../errors.ts';

export interface LanguageInfo {
  iso3: string;
  iso1?: string;
  name: string;
  espeakVoice?: string;
  script?: string;
  rtl: boolean;
  routes: string[];
}

// [iso3, iso1 | '', English name, eSpeak voice, ISO 15924 script]
type Row = readonly [string, string, string, string, string];

const ESPEAK_ROWS: readonly Row[] = [
  ['afr', 'af', 'Afrikaans', 'af', 'Latn'],
  ['amh', 'am', 'Amharic', 'am', 'Ethi'],
  ['arg', 'an', 'Aragonese', 'an', 'Latn'],
  ['ara', 'ar', 'Arabic', 'ar', 'Arab'],
  ['asm', 'as', 'Assamese', 'as', 'Beng'],
  ['aze', 'az', 'Azerbaijani', 'az', 'Latn'],
  ['bak', 'ba', 'Bashkir', 'ba', 'Cyrl'],
  ['bel', 'be', 'Belarusian', 'be', 'Cyrl'],
  ['bul', 'bg', 'Bulgarian', 'bg', 'Cyrl'],
  ['ben', 'bn', 'Bengali', 'bn', 'Beng'],
  ['bpy', '', 'Bishnupriya Manipuri', 'bpy', 'Beng'],
  ['bos', 'bs', 'Bosnian', 'bs', 'Latn'],
  ['cat', 'ca', 'Catalan', 'ca', 'Latn'],
  ['chr', '', 'Cherokee', 'iro/chr', 'Cher'],
  ['cmn', 'zh', 'Chinese (Mandarin)', 'cmn', 'Hani'],
  ['ces', 'cs', 'Czech', 'cs', 'Latn'],
  ['chv', 'cv', 'Chuvash', 'cv', 'Cyrl'],
  ['cym', 'cy', 'Welsh', 'cy', 'Latn'],
  ['dan', 'da', 'Danish', 'da', 'Latn'],
  ['deu', 'de', 'German', 'de', 'Latn'],
  ['ell', 'el', 'Greek', 'el', 'Grek'],
  ['eng', 'en', 'English', 'en-us', 'Latn'],
  ['epo', 'eo', 'Esperanto', 'eo', 'Latn'],
  ['spa', 'es', 'Spanish', 'es', 'Latn'],
  ['est', 'et', 'Estonian', 'et', 'Latn'],
  ['eus', 'eu', 'Basque', 'eu', 'Latn'],
  ['fas', 'fa', 'Persian', 'fa', 'Arab'],
  ['fin', 'fi', 'Finnish', 'fi', 'Latn'],
  ['fao', 'fo', 'Faroese', 'fo', 'Latn'],
  ['fra', 'fr', 'French', 'fr', 'Latn'],
  ['gle', 'ga', 'Irish', 'ga', 'Latn'],
  ['gla', 'gd', 'Scottish Gaelic', 'gd', 'Latn'],
  ['grn', 'gn', 'Guarani', 'gn', 'Latn'],
  ['grc', '', 'Ancient Greek', 'grc', 'Grek'],
  ['guj', 'gu', 'Gujarati', 'gu', 'Gujr'],
  ['hak', '', 'Hakka Chinese', 'hak', 'Hani'],
  ['haw', '', 'Hawaiian', 'haw', 'Latn'],
  ['heb', 'he', 'Hebrew', 'he', 'Hebr'],
  ['hin', 'hi', 'Hindi', 'hi', 'Deva'],
  ['hrv', 'hr', 'Croatian', 'hr', 'Latn'],
  ['hat', 'ht', 'Haitian Creole', 'ht', 'Latn'],
  ['hun', 'hu', 'Hungarian', 'hu', 'Latn'],
  ['hye', 'hy', 'Armenian (Eastern)', 'hy', 'Armn'],
  ['hyw', '', 'Armenian (Western)', 'hyw', 'Armn'],
  ['ina', 'ia', 'Interlingua', 'ia', 'Latn'],
  ['ind', 'id', 'Indonesian', 'id', 'Latn'],
  ['ido', 'io', 'Ido', 'io', 'Latn'],
  ['isl', 'is', 'Icelandic', 'is', 'Latn'],
  ['ita', 'it', 'Italian', 'it', 'Latn'],
  ['jpn', 'ja', 'Japanese', 'ja', 'Jpan'],
  ['jbo', '', 'Lojban', 'jbo', 'Latn'],
  ['kat', 'ka', 'Georgian', 'ka', 'Geor'],
  ['kaa', '', 'Karakalpak', 'kaa', 'Latn'],
  ['kaz', 'kk', 'Kazakh', 'kk', 'Cyrl'],
  ['kal', 'kl', 'Greenlandic', 'kl', 'Latn'],
  ['kan', 'kn', 'Kannada', 'kn', 'Knda'],
  ['kor', 'ko', 'Korean', 'ko', 'Kore'],
  ['kok', '', 'Konkani', 'kok', 'Deva'],
  ['kur', 'ku', 'Kurdish (Kurmanji)', 'ku', 'Latn'],
  ['kir', 'ky', 'Kyrgyz', 'ky', 'Cyrl'],
  ['lat', 'la', 'Latin', 'la', 'Latn'],
  ['ltz', 'lb', 'Luxembourgish', 'lb', 'Latn'],
  ['lfn', '', 'Lingua Franca Nova', 'lfn', 'Latn'],
  ['lit', 'lt', 'Lithuanian', 'lt', 'Latn'],
  ['ltg', '', 'Latgalian', 'ltg', 'Latn'],
  ['lav', 'lv', 'Latvian', 'lv', 'Latn'],
  ['mri', 'mi', 'Maori', 'mi', 'Latn'],
  ['mkd', 'mk', 'Macedonian', 'mk', 'Cyrl'],
  ['mal', 'ml', 'Malayalam', 'ml', 'Mlym'],
  ['mar', 'mr', 'Marathi', 'mr', 'Deva'],
  ['msa', 'ms', 'Malay', 'ms', 'Latn'],
  ['mlt', 'mt', 'Maltese', 'mt', 'Latn'],
  ['mto', '', 'Totontepec Mixe', 'mto', 'Latn'],
  ['mya', 'my', 'Burmese', 'my', 'Mymr'],
  ['nob', 'nb', 'Norwegian Bokmål', 'nb', 'Latn'],
  ['nci', '', 'Classical Nahuatl', 'nci', 'Latn'],
  ['nep', 'ne', 'Nepali', 'ne', 'Deva'],
  ['nld', 'nl', 'Dutch', 'nl', 'Latn'],
  ['nog', '', 'Nogai', 'nog', 'Cyrl'],
  ['orm', 'om', 'Oromo', 'om', 'Latn'],
  ['ori', 'or', 'Odia', 'or', 'Orya'],
  ['pan', 'pa', 'Punjabi', 'pa', 'Guru'],
  ['pap', '', 'Papiamento', 'pap', 'Latn'],
  ['tlh', '', 'Klingon (pIqaD)', 'piqd', 'Piqd'],
  ['pol', 'pl', 'Polish', 'pl', 'Latn'],
  ['por', 'pt', 'Portuguese', 'pt', 'Latn'],
  ['que', 'qu', 'Quechua', 'qu', 'Latn'],
  ['quc', '', "K'iche'", 'quc', 'Latn'],
  ['qya', '', 'Quenya', 'qya', 'Latn'],
  ['ron', 'ro', 'Romanian', 'ro', 'Latn'],
  ['rus', 'ru', 'Russian', 'ru', 'Cyrl'],
  ['snd', 'sd', 'Sindhi', 'sd', 'Arab'],
  ['shn', '', 'Shan', 'shn', 'Mymr'],
  ['sin', 'si', 'Sinhala', 'si', 'Sinh'],
  ['sjn', '', 'Sindarin', 'sjn', 'Latn'],
  ['slk', 'sk', 'Slovak', 'sk', 'Latn'],
  ['slv', 'sl', 'Slovenian', 'sl', 'Latn'],
  ['smj', '', 'Lule Sami', 'smj', 'Latn'],
  ['sqi', 'sq', 'Albanian', 'sq', 'Latn'],
  ['srp', 'sr', 'Serbian', 'sr', 'Cyrl'],
  ['swe', 'sv', 'Swedish', 'sv', 'Latn'],
  ['swa', 'sw', 'Swahili', 'sw', 'Latn'],
  ['tam', 'ta', 'Tamil', 'ta', 'Taml'],
  ['tel', 'te', 'Telugu', 'te', 'Telu'],
  ['tha', 'th', 'Thai', 'th', 'Thai'],
  ['tir', 'ti', 'Tigrinya', 'ti', 'Ethi'],
  ['tuk', 'tk', 'Turkmen', 'tk', 'Latn'],
  ['tsn', 'tn', 'Tswana', 'tn', 'Latn'],
  ['tur', 'tr', 'Turkish', 'tr', 'Latn'],
  ['tat', 'tt', 'Tatar', 'tt', 'Cyrl'],
  ['uig', 'ug', 'Uyghur', 'ug', 'Arab'],
  ['ukr', 'uk', 'Ukrainian', 'uk', 'Cyrl'],
  ['urd', 'ur', 'Urdu', 'ur', 'Arab'],
  ['uzb', 'uz', 'Uzbek', 'uz', 'Latn'],
  ['vie', 'vi', 'Vietnamese', 'vi', 'Latn'],
  ['yue', '', 'Chinese (Cantonese)', 'yue', 'Hani'],
];

// Arabic varieties: no eSpeak voice of their own, read with the Arabic letter rules (and the MSA voice
// as a fallback). 'arb' is Standard Arabic, an individual language of the macrolanguage 'ara'.
const ARABIC_VARIETIES: readonly (readonly [string, string])[] = [
  ['arb', 'Standard Arabic'],
  ['aeb', 'Tunisian Arabic'],
  ['arz', 'Egyptian Arabic'],
  ['apc', 'Levantine Arabic (North)'],
  ['ajp', 'Levantine Arabic (South)'],
  ['ary', 'Moroccan Arabic'],
  ['arq', 'Algerian Arabic'],
  ['acm', 'Mesopotamian Arabic'],
  ['afb', 'Gulf Arabic'],
  ['ayl', 'Libyan Arabic'],
  ['apd', 'Sudanese Arabic'],
  ['acw', 'Hijazi Arabic'],
  ['ars', 'Najdi Arabic'],
  ['ayn', 'Sanaani Arabic'],
  ['shu', 'Chadian Arabic'],
];

// Individual languages of a macrolanguage and ISO 639-2/B codes, resolved to the row we hold.
const ALIASES: Readonly<Record<string, string>> = {
  zho: 'cmn',
  chi: 'cmn',
  zsm: 'msa',
  may: 'msa',
  pes: 'fas',
  prs: 'fas',
  per: 'fas',
  nor: 'nob',
  no: 'nob',
  ekk: 'est',
  lvs: 'lav',
  swh: 'swa',
  uzn: 'uzb',
  kmr: 'kur',
  gaz: 'orm',
  quy: 'que',
  npi: 'nep',
  als: 'sqi',
  alb: 'sqi',
  fre: 'fra',
  ger: 'deu',
  dut: 'nld',
  gre: 'ell',
  arm: 'hye',
  geo: 'kat',
  cze: 'ces',
  slo: 'slk',
  rum: 'ron',
  mac: 'mkd',
  ice: 'isl',
  wel: 'cym',
  baq: 'eus',
  bur: 'mya',
  mao: 'mri',
  hbs: 'hrv',
};

// Region subtags that select a different eSpeak voice than the language default.
const REGIONAL_VOICES: Readonly<Record<string, string>> = {
  'en-gb': 'en-gb',
  'en-au': 'en-gb',
  'en-nz': 'en-gb',
  'en-ie': 'en-gb',
  'en-za': 'en-gb',
  'en-in': 'en-gb',
  'en-029': 'en-029',
  'en-jm': 'en-029',
  'en-gb-scotland': 'en-gb-scotland',
  'fr-be': 'fr-be',
  'fr-ch': 'fr-ch',
  'pt-br': 'pt-br',
  'es-419': 'es-419',
  'es-mx': 'es-419',
  'vi-vn-x-central': 'vi-vn-x-central',
  'vi-vn-x-south': 'vi-vn-x-south',
  'ru-lv': 'ru-lv',
  'ca-ba': 'ca-ba',
  'ca-nw': 'ca-nw',
  'ca-va': 'ca-va',
};

const RTL_SCRIPTS = new Set(['Arab', 'Hebr', 'Syrc', 'Thaa', 'Nkoo', 'Adlm']);

function routesFor(iso3: string, arabicRules: boolean): string[] {
  if (arabicRules) return ['arabic-rules', 'espeak-ipa'];
  // English and French have the acoustic model's own pronunciation dictionary; eSpeak covers the
  // words the dictionary lacks.
  if (iso3 === 'eng' || iso3 === 'fra') return ['dictionary', 'espeak-ipa'];
  return ['espeak-ipa'];
}

function build(): Map<string, LanguageInfo> {
  const table = new Map<string, LanguageInfo>();
  for (const [iso3, iso1, name, voice, script] of ESPEAK_ROWS) {
    const info: LanguageInfo = {
      iso3,
      name,
      espeakVoice: voice,
      script,
      rtl: RTL_SCRIPTS.has(script),
      routes: routesFor(iso3, iso3 === 'ara'),
    };
    if (iso1) info.iso1 = iso1;
    table.set(iso3, info);
  }
  for (const [iso3, name] of ARABIC_VARIETIES) {
    table.set(iso3, {
      iso3,
      name,
      espeakVoice: 'ar',
      script: 'Arab',
      rtl: true,
      routes: routesFor(iso3, true),
    });
  }
  return table;
}

const TABLE = build();
const BY_ISO1 = new Map<string, LanguageInfo>();
for (const info of TABLE.values()) if (info.iso1) BY_ISO1.set(info.iso1, info);

/** Is this language read with the Arabic letter rules (MSA and the Arabic varieties)? */
export function isArabicLanguage(lang: string): boolean {
  try {
    return resolveLanguage(lang).routes[0] === 'arabic-rules';
  } catch {
    return false;
  }
}

/**
 * Accepts ISO 639-3 ('ara'), ISO 639-1 ('ar'), ISO 639-2/B ('fre') and BCP 47 tags with a region
 * ('en-US', 'fr_CA', 'pt-BR'; the region may pick a regional eSpeak voice). Throws on anything else.
 */
export function resolveLanguage(code: string): LanguageInfo {
  const raw = String(code ?? '')
    .trim()
    .toLowerCase()
    .replace(/_/g, '-');
  if (!raw)
    throw new EngineError(
      'unknown_language',
      'language code is empty; give an ISO 639-3 code such as "ara", "eng" or "fra"',
    );
  const primary = raw.split('-')[0] ?? '';
  const aliased = ALIASES[primary] ?? primary;
  const base = TABLE.get(aliased) ?? BY_ISO1.get(aliased);
  if (!base) {
    const iso = lookupIso639(code);
    throw new EngineError(
      'unknown_language',
      iso
        ? `no pronunciation route for written ${iso.name} ("${code}"): the ${TABLE.size} languages of ` +
            '`tazamun languages` are read from written text; align it with --engine mms ' +
            '(`tazamun models pull mms` once) or give an IPA transcript with --ipa'
        : `unknown language code "${code}": not an ISO 639-3 or 639-1 code ` +
            `(${TABLE.size} languages are read from written text: \`tazamun languages\`)`,
    );
  }
  const regional = REGIONAL_VOICES[raw] ?? REGIONAL_VOICES[raw.split('-').slice(0, 2).join('-')];
  if (regional && regional !== base.espeakVoice) return { ...base, espeakVoice: regional };
  return { ...base, routes: [...base.routes] };
}

/** Every supported language, sorted by ISO 639-3 code. */
export function listLanguages(): LanguageInfo[] {
  return [...TABLE.values()]
    .map((info) => ({ ...info, routes: [...info.routes] }))
    .sort((a, b) => a.iso3.localeCompare(b.iso3));
}

interface IsoLanguage {
  iso3: string;
  name: string;
}

let ISO_TABLE: { byIso3: Map<string, IsoLanguage>; byOther: Map<string, IsoLanguage> } | null = null;

function isoTable(): NonNullable<typeof ISO_TABLE> {
  if (ISO_TABLE) return ISO_TABLE;
  const byIso3 = new Map<string, IsoLanguage>();
  const byOther = new Map<string, IsoLanguage>();
  // Special codes (mis, mul, und, zxx) name no language; qaa-qtz are reserved for local use.
  for (const l of iso6393) {
    if (l.type === 'special' || l.scope === 'special') continue;
    const entry = { iso3: l.iso6393, name: l.name };
    byIso3.set(l.iso6393, entry);
    for (const alias of [l.iso6391, l.iso6392B, l.iso6392T]) if (alias) byOther.set(alias, entry);
  }
  ISO_TABLE = { byIso3, byOther };
  return ISO_TABLE;
}

/**
 * Any language of the full ISO 639-3 table (7,800+ codes), by its 639-3 code, its 639-1 or 639-2 code,
 * or a BCP 47 tag whose primary subtag is one of those; null for anything else.
 */
export function lookupIso639(code: string): IsoLanguage | null {
  const primary =
    String(code ?? '')
      .trim()
      .toLowerCase()
      .replace(/_/g, '-')
      .split('-')[0] ?? '';
  if (!/^[a-z]{2,3}$/.test(primary)) return null;
  const t = isoTable();
  return t.byIso3.get(primary) ?? t.byOther.get(primary) ?? null;
}

/**
 * The language of an IPA transcript: the table's entry when the language has one, else any ISO 639-3
 * language (IPA is read the same way whatever the language; the route is ipa-input).
 */
export function resolveIpaLanguage(code: string): LanguageInfo {
  try {
    return resolveLanguage(code);
  } catch (err) {
    const iso = lookupIso639(code);
    if (!iso) {
      throw new EngineError(
        'unknown_language',
        `unknown language code "${code}": an IPA transcript accepts every ISO 639-3 code, and this is none`,
        { cause: err },
      );
    }
    return ipaOnly(iso);
  }
}

/** A language outside the table, for an IPA transcript: read by the IPA rules, whatever the language. */
const ipaOnly = (iso: IsoLanguage): LanguageInfo => ({
  iso3: iso.iso3,
  name: iso.name,
  rtl: false,
  routes: ['ipa-input'],
});

/** A language code accepted once for an alignment; what the rest of the pipeline reads instead of the code. */
export interface AcceptedLanguage {
  /** the code as the caller gave it ('en-GB', 'ar', 'ara'): a regional voice follows it */
  code: string;
  iso3: string;
  name: string;
  /** the table's entry (written text has a pronunciation route on hmm); null for IPA- or MMS-only use */
  info: LanguageInfo | null;
  /**
   * What the text rules (normalize.ts) read: the table's entry, or for an IPA transcript in a language
   * outside the table the IPA rules' entry; null for written text only MMS reads (kept as written).
   */
  text: LanguageInfo | null;
}

/** The mms back-end refuses an IPA transcript with this message (here, and in its own pronounce()). */
export const MMS_IPA_REFUSAL =
  'the mms engine aligns written text (romanised letters), not IPA; an IPA transcript is aligned by ' +
  'the hmm engine (--engine hmm or auto), which accepts every ISO 639-3 code';

/**
 * The check every caller makes before aligning: is this language code accepted for this input kind and
 * engine? Written text on hmm needs a language of the table; IPA (hmm or auto) and written text on mms
 * or auto accept every ISO 639-3 code, so an MMS language is accepted before the model is installed and
 * the user is told to pull it rather than that the code is unknown. Throws EngineError unknown_language
 * or unsupported_option.
 */
export function acceptLanguage(
  code: string,
  opts: { inputKind?: InputKind; engine?: EngineName } = {},
): AcceptedLanguage {
  const inputKind = opts.inputKind ?? 'orthography';
  const engine = opts.engine ?? 'auto';
  if (inputKind === 'ipa' && engine === 'mms') throw new EngineError('unsupported_option', MMS_IPA_REFUSAL);
  let info: LanguageInfo | null = null;
  try {
    info = resolveLanguage(code);
  } catch (err) {
    if (inputKind === 'orthography' && engine === 'hmm') throw err;
  }
  if (info) return { code, iso3: info.iso3, name: info.name, info, text: info };
  const iso = lookupIso639(code);
  if (!iso) {
    throw new EngineError(
      'unknown_language',
      `unknown language code "${code}": not an ISO 639-3 or 639-1 code` +
        (inputKind === 'ipa' ? ' (an IPA transcript accepts every ISO 639-3 code)' : ''),
    );
  }
  return {
    code,
    iso3: iso.iso3,
    name: iso.name,
    info: null,
    text: inputKind === 'ipa' ? ipaOnly(iso) : null,
  };
}
