// IPA -> phone labels of the Sphinx models. Cross-lingual alignment (any language eSpeak NG speaks, or a
// user's IPA transcript) maps every IPA segment to the nearest phone of the English (ARPAbet) or French
// model, so the search can place it. Longest match first; diacritics that do not change the nearest model
// phone (length, stress, syllabicity, tie bars, aspiration) are dropped. Unknown symbols are skipped.

const EN: Record<string, string[]> = {
  // vowels and diphthongs
  i: ['IY'],
  iː: ['IY'],
  ɪ: ['IH'],
  y: ['IY'],
  ʏ: ['IH'],
  e: ['EY'],
  eː: ['EY'],
  eɪ: ['EY'],
  ɛ: ['EH'],
  ɛː: ['EH'],
  æ: ['AE'],
  a: ['AA'],
  aː: ['AA'],
  ɑ: ['AA'],
  ɑː: ['AA'],
  ɒ: ['AA'],
  ɐ: ['AH'],
  ʌ: ['AH'],
  ə: ['AH'],
  ɚ: ['ER'],
  ɜ: ['ER'],
  ɜː: ['ER'],
  ɝ: ['ER'],
  ɔ: ['AO'],
  ɔː: ['AO'],
  o: ['OW'],
  oː: ['OW'],
  oʊ: ['OW'],
  əʊ: ['OW'],
  u: ['UW'],
  uː: ['UW'],
  ʊ: ['UH'],
  ɯ: ['UW'],
  ɨ: ['IH'],
  ʉ: ['UW'],
  ø: ['ER'],
  œ: ['ER'],
  ɤ: ['AH'],
  aɪ: ['AY'],
  aʊ: ['AW'],
  ɔɪ: ['OY'],
  eə: ['EH', 'R'],
  ɪə: ['IH', 'R'],
  ʊə: ['UH', 'R'],
  // consonants
  p: ['P'],
  b: ['B'],
  t: ['T'],
  d: ['D'],
  ʈ: ['T'],
  ɖ: ['D'],
  k: ['K'],
  g: ['G'],
  ɡ: ['G'],
  q: ['K'],
  ɢ: ['G'],
  ʔ: [],
  c: ['K'],
  ɟ: ['G'],
  m: ['M'],
  ɱ: ['M'],
  n: ['N'],
  ɳ: ['N'],
  ɲ: ['N', 'Y'],
  ŋ: ['NG'],
  ɴ: ['NG'],
  f: ['F'],
  v: ['V'],
  θ: ['TH'],
  ð: ['DH'],
  s: ['S'],
  z: ['Z'],
  ʃ: ['SH'],
  ʒ: ['ZH'],
  ʂ: ['SH'],
  ʐ: ['ZH'],
  ɕ: ['SH'],
  ʑ: ['ZH'],
  ç: ['HH'],
  ʝ: ['Y'],
  x: ['HH'],
  ɣ: ['G'],
  χ: ['HH'],
  ʁ: ['R'],
  ħ: ['HH'],
  ʕ: ['HH'],
  h: ['HH'],
  ɦ: ['HH'],
  ɸ: ['F'],
  β: ['V'],
  ʋ: ['V'],
  ɹ: ['R'],
  r: ['R'],
  ɾ: ['D'],
  ɽ: ['R'],
  ʀ: ['R'],
  l: ['L'],
  ɫ: ['L'],
  ɭ: ['L'],
  ʎ: ['L', 'Y'],
  ɬ: ['SH'],
  j: ['Y'],
  w: ['W'],
  ɥ: ['W'],
  ʍ: ['W'],
  tʃ: ['CH'],
  dʒ: ['JH'],
  ts: ['T', 'S'],
  dz: ['D', 'Z'],
  tɕ: ['CH'],
  dʑ: ['JH'],
  t͡ʃ: ['CH'],
  d͡ʒ: ['JH'],
  // Arabic emphatics and pharyngealised consonants map to their plain counterparts
  tˤ: ['T'],
  dˤ: ['D'],
  sˤ: ['S'],
  ðˤ: ['DH'],
  zˤ: ['Z'],
  lˤ: ['L'],
  rˤ: ['R'],
  // eSpeak's extra symbols
  ɑ̃: ['AA', 'N'],
  ɛ̃: ['EH', 'N'],
  ɔ̃: ['AO', 'N'],
  œ̃: ['ER', 'N'],
  ᵻ: ['IH'],
  ɘ: ['AH'],
  ɵ: ['AH'],
};

const FR: Record<string, string[]> = {
  i: ['ii'],
  iː: ['ii'],
  ɪ: ['ii'],
  y: ['uy'],
  ʏ: ['uy'],
  e: ['ei'],
  eː: ['ei'],
  eɪ: ['ei'],
  ɛ: ['ai'],
  ɛː: ['ai'],
  æ: ['ai'],
  a: ['aa'],
  aː: ['aa'],
  ɑ: ['aa'],
  ɑː: ['aa'],
  ɒ: ['au'],
  ɐ: ['aa'],
  ʌ: ['ee'],
  ə: ['ee'],
  ɚ: ['ee', 'rr'],
  ɜ: ['eu'],
  ɜː: ['eu'],
  ɔ: ['au'],
  ɔː: ['au'],
  o: ['oo'],
  oː: ['oo'],
  oʊ: ['oo'],
  əʊ: ['oo'],
  u: ['ou'],
  uː: ['ou'],
  ʊ: ['ou'],
  ɯ: ['ou'],
  ɨ: ['ii'],
  ʉ: ['uy'],
  ø: ['eu'],
  œ: ['oe'],
  ɤ: ['ee'],
  aɪ: ['aa', 'yy'],
  aʊ: ['aa', 'ou'],
  ɔɪ: ['au', 'yy'],
  ɑ̃: ['an'],
  ɛ̃: ['in'],
  ɔ̃: ['on'],
  œ̃: ['un'],
  ã: ['an'],
  õ: ['on'],
  ẽ: ['in'],
  p: ['pp'],
  b: ['bb'],
  t: ['tt'],
  d: ['dd'],
  ʈ: ['tt'],
  ɖ: ['dd'],
  k: ['kk'],
  g: ['gg'],
  ɡ: ['gg'],
  q: ['kk'],
  ɢ: ['gg'],
  ʔ: [],
  c: ['kk'],
  ɟ: ['gg'],
  m: ['mm'],
  ɱ: ['mm'],
  n: ['nn'],
  ɳ: ['nn'],
  ɲ: ['gn'],
  ŋ: ['nn', 'gg'],
  f: ['ff'],
  v: ['vv'],
  θ: ['ss'],
  ð: ['zz'],
  s: ['ss'],
  z: ['zz'],
  ʃ: ['ch'],
  ʒ: ['jj'],
  ʂ: ['ch'],
  ʐ: ['jj'],
  ɕ: ['ch'],
  ʑ: ['jj'],
  ç: ['ch'],
  ʝ: ['yy'],
  x: ['rr'],
  ɣ: ['rr'],
  χ: ['rr'],
  ʁ: ['rr'],
  ħ: ['rr'],
  ʕ: ['rr'],
  h: [],
  ɦ: [],
  ɸ: ['ff'],
  β: ['vv'],
  ʋ: ['vv'],
  ɹ: ['rr'],
  r: ['rr'],
  ɾ: ['rr'],
  ɽ: ['rr'],
  ʀ: ['rr'],
  l: ['ll'],
  ɫ: ['ll'],
  ɭ: ['ll'],
  ʎ: ['ll', 'yy'],
  j: ['yy'],
  w: ['ww'],
  ɥ: ['uy'],
  tʃ: ['tt', 'ch'],
  dʒ: ['dd', 'jj'],
  ts: ['tt', 'ss'],
  dz: ['dd', 'zz'],
  tˤ: ['tt'],
  dˤ: ['dd'],
  sˤ: ['ss'],
  ðˤ: ['zz'],
  zˤ: ['zz'],
  lˤ: ['ll'],
  rˤ: ['rr'],
  ᵻ: ['ii'],
  ɘ: ['ee'],
  ɵ: ['eu'],
};

/**
 * A model's phone set as the IPA mapping sees it: which model phones each IPA segment becomes, and the IPA
 * each model phone stands for natively. The English and French models' sets are built from the tables
 * above; an adapted model (adapt/) adds phones of its own (ʕ, ħ, q, ʔ...), which replace their stand-ins.
 */
export interface PhoneSet {
  family: 'en' | 'fr';
  /** IPA segment -> model phones ([] where the model places nothing) */
  table: Record<string, string[]>;
  /** the table's keys, longest first */
  keys: string[];
  /** per model phone, the IPA it stands for natively (a phone mapped otherwise is approximated) */
  native: Record<string, string[]>;
}

/** A phone a model gained by adaptation: its label, the IPA it stands for, the phone it was cloned from. */
export interface ExtraPhone {
  phone: string;
  ipa: string;
  from: string;
}

const sets = new Map<string, PhoneSet>();

/** The phone set of a model family, with the phones an adapted model added. */
export function phoneSet(family: 'en' | 'fr', extra: readonly ExtraPhone[] = []): PhoneSet {
  const key = `${family}:${extra.map((e) => `${e.phone}=${e.ipa}`).join(',')}`;
  let set = sets.get(key);
  if (set) return set;
  const table: Record<string, string[]> = { ...(family === 'fr' ? FR : EN) };
  const native: Record<string, string[]> = {};
  for (const [phone, ipa] of Object.entries(MODEL_PHONE_IPA[family])) native[phone] = [ipa];
  for (const [phone, ipas] of Object.entries(NATIVE_VARIANTS[family]))
    native[phone] = [...(native[phone] ?? []), ...ipas];
  for (const e of extra) {
    const ipa = e.ipa.normalize('NFC').replace(/ɡ/g, 'g');
    table[ipa] = [e.phone];
    native[e.phone] = [e.ipa.normalize('NFC')];
  }
  set = { family, table, keys: Object.keys(table).sort((a, b) => b.length - a.length), native };
  sets.set(key, set);
  return set;
}

const asSet = (s: PhoneSet | 'en' | 'fr'): PhoneSet => (typeof s === 'string' ? phoneSet(s) : s);

/** A model phone and the IPA phone it stands for; `group` numbers the IPA phones of one string. */
export interface TaggedPhone {
  model: string;
  ipa: string;
  group: number;
  /**
   * IPA phones just before this one that the model places nothing for (ʔ on the English model): the tier
   * shows them at this phone's onset
   */
  lead?: string;
  /** ...and after this one, at the end of the word (a final ʔ) */
  trail?: string;
}

/** Whether the model phones placed for an IPA phone are its own (not a stand-in, not two for one). */
export function isNative(set: PhoneSet | 'en' | 'fr', ipa: string, models: readonly string[]): boolean {
  if (models.length !== 1) return false;
  // stress marks and tie bars say nothing about which phone it is
  const clean = (x: string) =>
    x
      .normalize('NFC')
      .replace(/g/g, 'ɡ')
      .replace(/ˈ|ˌ|\u0361/gu, '');
  const own = asSet(set).native[models[0]!];
  return own !== undefined && own.some((n) => clean(n) === clean(ipa));
}

const MODIFIER = /[\p{M}ːˑʰʷʲˠˤ˞ʼⁿˡʱ]/u;

/**
 * ipaToModelPhones, keeping for each model phone the IPA it came from. An IPA phone that maps to two model
 * phones (ɲ -> N Y) gives both the same group; one that maps to none (ʔ on the English model) is carried
 * by the next model phone as its `lead` (at the end: appended to the last one's IPA); a symbol the table
 * lacks is prefixed to the next phone's IPA.
 */
export function ipaToModelPhonesTagged(ipa: string, phones: PhoneSet | 'en' | 'fr'): TaggedPhone[] {
  const { table, keys } = asSet(phones);
  const text = ipa.normalize('NFC').replace(/ɡ/g, 'g');
  const out: TaggedPhone[] = [];
  let pending = '';
  let lead = '';
  let group = 0;
  let i = 0;
  while (i < text.length) {
    const k = keys.find((key) => text.startsWith(key, i));
    if (k !== undefined) {
      const label = pending + k.replace(/g/g, 'ɡ');
      pending = '';
      const models = table[k]!;
      if (models.length === 0) lead += label;
      else {
        const tagged = models.map((m): TaggedPhone => ({ model: m, ipa: label, group }));
        if (lead) tagged[0]!.lead = lead;
        lead = '';
        out.push(...tagged);
        group++;
      }
      i += k.length;
      continue;
    }
    const ch = text[i]!;
    // Length and secondary articulations stay on the phone they modify; stress, breaks and spaces go.
    if (MODIFIER.test(ch) && lead !== '' && pending === '') lead += ch;
    else if (MODIFIER.test(ch) && out.length > 0 && pending === '') {
      const g = out[out.length - 1]!.group;
      for (const t of out) if (t.group === g) t.ipa += ch;
    } else if (/\p{L}/u.test(ch)) pending += ch;
    i++;
  }
  if ((pending || lead) && out.length > 0) {
    const g = out[out.length - 1]!.group;
    for (const t of out) if (t.group === g) t.ipa += lead + pending;
  }
  // Length and gemination are absorbed by the HMM's self-loops: an immediate repeat is one model phone,
  // whose IPA is the geminate (b b -> bː) or the two phones written together.
  const merged: TaggedPhone[] = [];
  for (const t of out) {
    const prev = merged[merged.length - 1];
    if (prev && prev.model === t.model && prev.group !== t.group) {
      // (a glottal stop between the two stays in the written IPA: a ʔ a -> aʔa)
      prev.ipa = prev.ipa === t.ipa && !t.lead ? `${prev.ipa}ː` : prev.ipa + (t.lead ?? '') + t.ipa;
      continue;
    }
    if (prev && prev.model === t.model) continue;
    merged.push({ ...t });
  }
  return merged;
}

export function ipaToModelPhones(ipa: string, phones: PhoneSet | 'en' | 'fr'): string[] {
  return ipaToModelPhonesTagged(ipa, phones).map((t) => t.model);
}

/**
 * IPA of the models' own phone labels, for words whose pronunciation comes from the model's dictionary.
 * CMU ARPAbet without stress marks: AH is written ə (most AH in running speech are unstressed), ER ɝ.
 * French (LIUM labels): uy is the front rounded /y/, au the open /ɔ/.
 */
export const MODEL_PHONE_IPA: Record<'en' | 'fr', Record<string, string>> = {
  en: {
    AA: 'ɑ',
    AE: 'æ',
    AH: 'ə',
    AO: 'ɔ',
    AW: 'aʊ',
    AY: 'aɪ',
    EH: 'ɛ',
    ER: 'ɝ',
    EY: 'eɪ',
    IH: 'ɪ',
    IY: 'i',
    OW: 'oʊ',
    OY: 'ɔɪ',
    UH: 'ʊ',
    UW: 'u',
    B: 'b',
    CH: 'tʃ',
    D: 'd',
    DH: 'ð',
    F: 'f',
    G: 'ɡ',
    HH: 'h',
    JH: 'dʒ',
    K: 'k',
    L: 'l',
    M: 'm',
    N: 'n',
    NG: 'ŋ',
    P: 'p',
    R: 'ɹ',
    S: 's',
    SH: 'ʃ',
    T: 't',
    TH: 'θ',
    V: 'v',
    W: 'w',
    Y: 'j',
    Z: 'z',
    ZH: 'ʒ',
  },
  fr: {
    aa: 'a',
    ai: 'ɛ',
    an: 'ɑ̃',
    au: 'ɔ',
    bb: 'b',
    ch: 'ʃ',
    dd: 'd',
    ee: 'ə',
    ei: 'e',
    eu: 'ø',
    ff: 'f',
    gg: 'ɡ',
    gn: 'ɲ',
    ii: 'i',
    in: 'ɛ̃',
    jj: 'ʒ',
    kk: 'k',
    ll: 'l',
    mm: 'm',
    nn: 'n',
    oe: 'œ',
    on: 'ɔ̃',
    oo: 'o',
    ou: 'u',
    pp: 'p',
    rr: 'ʁ',
    ss: 's',
    tt: 't',
    un: 'œ̃',
    uu: 'u',
    uy: 'y',
    vv: 'v',
    ww: 'w',
    yy: 'j',
    zz: 'z',
  },
};

/**
 * Other IPA for which a model phone is the language's own phone, not a stand-in: English's long vowels
 * written with their length (eSpeak writes IY as iː), rhotic and reduced variants; French's open/close
 * pairs the LIUM set does not split.
 */
const NATIVE_VARIANTS: Record<'en' | 'fr', Record<string, string[]>> = {
  en: {
    AA: ['ɑː'],
    AO: ['ɔː'],
    AH: ['ʌ'],
    ER: ['ɚ', 'ɜ', 'ɜː'],
    EY: ['e'],
    IY: ['iː'],
    OW: ['əʊ', 'o'],
    UW: ['uː'],
    CH: ['t͡ʃ'],
    JH: ['d͡ʒ'],
  },
  fr: {
    aa: ['ɑ'],
    ai: ['ɛː'],
    an: ['ã'],
    in: ['ẽ'],
    on: ['õ'],
  },
};
