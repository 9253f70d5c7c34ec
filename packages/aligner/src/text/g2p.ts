// Pronunciations as IPA phones.
//
// IPA inventory (what every function here returns; the acoustic side maps it to its model's phones):
// - one phone = one base IPA letter plus the marks that modify it: combining diacritics (dental ̪,
//   nasal ̃, ...), length ː / half-length ˑ, and secondary articulations ʰ ʷ ʲ ˠ ˤ ˞ ʼ;
// - affricates are one phone: tʃ dʒ ts dz tɕ dʑ ʈʂ ɖʐ pf (from eSpeak as it segments them; from user
//   IPA when tied with ͡ or ͜, and tʃ dʒ tɕ dʑ ʈʂ ɖʐ without a tie);
// - diphthongs are one phone when eSpeak gives them as one (aɪ aʊ ɔɪ oʊ eɪ ...), or in user IPA when
//   tied or marked non-syllabic (a͡ɪ, aɪ̯);
// - long vowels keep ː (aː iː uː); Arabic gemination is two identical phones (b b), not bː;
// - stress (ˈ ˌ), syllable breaks (.), tone letters (˥˦˧˨˩) and eSpeak tone digits are removed;
// - Arabic rules use: ʔ b t θ dʒ ħ x d ð r z s ʃ sˤ dˤ tˤ ðˤ ʕ ɣ f q k l m n h w j p tʃ ʒ ɡ v
//   and a i u aː iː uː.
import { functionWordLattice, PROCLITICS } from './arabic-function-words.ts';
import {
  ALEF_WASLA,
  DAGGER_ALIF,
  DAMMA,
  DAMMATAN,
  FATHA,
  FATHATAN,
  KASRA,
  KASRATAN,
  SHADDA,
  SUKUN,
  arabicPlain,
  arabicPronunciationForm,
  isHaraka,
} from './arabic.ts';
import { resolveLanguage } from './languages.ts';
import type { LanguageInfo } from './languages.ts';

// ---------------------------------------------------------------- IPA segmentation

const STRESS_AND_BREAKS = /[ˈˌ.‿|‖'’0-9˥˦˧˨˩]/g;
const MODIFIERS = new Set(['ː', 'ˑ', 'ʰ', 'ʷ', 'ʲ', 'ˠ', 'ˤ', '˞', 'ʼ', 'ⁿ', 'ˡ', 'ʱ']);
const TIES = new Set(['\u0361', '\u035C']);
const NON_SYLLABIC = '\u032F';
const UNTIED_AFFRICATES = new Set(['tʃ', 'dʒ', 'tɕ', 'dʑ', 'ʈʂ', 'ɖʐ']);

function isCombining(ch: string): boolean {
  return /\p{M}/u.test(ch);
}

/**
 * Segments an IPA string into phones (see the inventory above). Whitespace and punctuation separate
 * nothing in particular: they are dropped, so "ba xiːl" and "baxiːl" give the same phones.
 */
export function ipaToPhones(ipa: string): string[] {
  const chars = [...ipa.normalize('NFD').replace(STRESS_AND_BREAKS, '')];
  const phones: string[] = [];
  let tieNext = false;
  for (const ch of chars) {
    if (/[\s\p{P}\p{S}]/u.test(ch) && !MODIFIERS.has(ch)) {
      tieNext = false;
      continue;
    }
    if (TIES.has(ch)) {
      tieNext = true;
      continue;
    }
    const last = phones.length - 1;
    if (phones.length > 0 && (isCombining(ch) || MODIFIERS.has(ch))) {
      phones[last] += ch;
      continue;
    }
    if (tieNext && phones.length > 0) {
      phones[last] += ch;
      tieNext = false;
      continue;
    }
    if (phones.length > 0 && UNTIED_AFFRICATES.has((phones[last] ?? '') + ch)) {
      phones[last] += ch;
      continue;
    }
    phones.push(ch);
  }
  // A vowel marked non-syllabic joins the vowel before it (aɪ̯ -> one diphthong).
  const merged: string[] = [];
  for (const p of phones) {
    if (p.includes(NON_SYLLABIC) && merged.length > 0)
      merged[merged.length - 1] += p.replace(NON_SYLLABIC, '');
    else merged.push(p);
  }
  return merged.map((p) => p.normalize('NFC')).filter((p) => p.length > 0);
}

/** Diphthongs (and two triphthongs) eSpeak gives as one phone and the acoustic mappings read as one. */
const DIPHTHONGS = new Set([
  'aɪ',
  'aʊ',
  'ɔɪ',
  'eɪ',
  'oʊ',
  'əʊ',
  'ɪə',
  'eə',
  'ʊə',
  'ɛə',
  'aɪə',
  'aʊə',
  'ɔʏ',
  'ɛi',
  'œy',
  'ʌu',
  'ɑɪ',
  'ɐɪ',
  'ɐʊ',
]);

/**
 * The phones of a pronunciation as the lexicon keeps it (its export to an MFA dictionary, the preview):
 * where the IPA is written with spaces between phones (as the preview and MFA dictionaries write it),
 * each space-separated piece is one phone; otherwise it is segmented by ipaToPhones, with the diphthongs
 * the alignment reads as one phone (aɪ, aʊ, oʊ, …) kept whole rather than split into two vowels.
 */
export function pronunciationPhones(ipa: string): string[] {
  const pieces = ipa
    .normalize('NFC')
    .split(/\s+/)
    .map((p) => p.replace(STRESS_AND_BREAKS, ''))
    .filter((p) => /\p{L}/u.test(p));
  if (pieces.length > 1) return pieces;
  const phones = ipaToPhones(ipa);
  const out: string[] = [];
  for (let i = 0; i < phones.length; i++) {
    const three = phones.slice(i, i + 3).join('');
    const two = phones.slice(i, i + 2).join('');
    if (i + 2 < phones.length && DIPHTHONGS.has(three)) {
      out.push(three);
      i += 2;
    } else if (i + 1 < phones.length && DIPHTHONGS.has(two)) {
      out.push(two);
      i += 1;
    } else out.push(phones[i]!);
  }
  return out;
}

/**
 * Characters of `ipa` that ipaToPhones would drop without a word: symbols and punctuation that are
 * neither stress, syllable or tone marks, ties nor modifiers (`@`, `$`, `=`...), and upper-case Latin
 * letters (no IPA letter is one; SAMPA's are not IPA). Empty for well-formed IPA. A personal lexicon
 * refuses an entry holding any, rather than store a pronunciation with a piece silently missing.
 */
export function unknownIpaSymbols(ipa: string): string[] {
  const found = new Set<string>();
  for (const ch of ipa.normalize('NFD').replace(STRESS_AND_BREAKS, '')) {
    if (/\s/u.test(ch) || MODIFIERS.has(ch) || TIES.has(ch)) continue;
    if (/[\p{P}\p{S}A-Z]/u.test(ch)) found.add(ch);
  }
  return [...found];
}

// ---------------------------------------------------------------- eSpeak NG

interface EspeakWorker {
  set_voice(name: string): number;
  convert_to_phonemes(text: string, useIpa: boolean): { ptr: number };
}
interface EspeakModule {
  eSpeakNGWorker: new () => EspeakWorker;
  HEAPU8: Uint8Array;
}
interface EspeakHandle {
  module: EspeakModule;
  worker: EspeakWorker;
  voice: string | null;
}

let espeakPromise: Promise<EspeakHandle> | null = null;

/** A new instance of the eSpeak NG WASM module (each has its own heap and voice). */
export async function loadEspeakModule<M>(): Promise<M> {
  // The package ships no type declarations; a variable specifier keeps tsc from resolving it.
  const specifier = '@echogarden/espeak-ng-emscripten';
  const mod = (await import(specifier)) as { default: () => Promise<M> };
  return mod.default();
}

async function getEspeak(): Promise<EspeakHandle> {
  espeakPromise ??= (async () => {
    const module = await loadEspeakModule<EspeakModule>();
    return { module, worker: new module.eSpeakNGWorker(), voice: null };
  })();
  try {
    return await espeakPromise;
  } catch (err) {
    espeakPromise = null;
    throw new Error(`eSpeak NG (WASM) failed to start: ${(err as Error).message}`);
  }
}

/**
 * Lets the eSpeak NG instance go (its heap and voice data, about 39 MiB): a long job calls this once its
 * words are pronounced, so the minutes of alignment after it run without them. The next use loads a new
 * instance (under a second); a conversion under way keeps the instance it holds.
 */
export function releaseEspeak(): void {
  espeakPromise = null;
}

const decoder = new TextDecoder();

function readCString(heap: Uint8Array, ptr: number): string {
  let end = ptr;
  while (heap[end] !== 0 && end < heap.length) end++;
  return decoder.decode(heap.subarray(ptr, end));
}

/** The eSpeak voice names the WASM build offers (for tests and diagnostics). */
export async function espeakVoiceNames(): Promise<string[]> {
  const { worker } = await getEspeak();
  const voices = (worker as unknown as { list_voices(): { languages: { name: string }[] }[] }).list_voices();
  return voices.flatMap((v) => v.languages.map((l) => l.name));
}

// eSpeak reads "[[...]]" as phoneme input and "(en)" marks a language switch in its output; neither
// may reach it from user text.
function cleanForEspeak(token: string): string {
  return token.replace(/[^\p{L}\p{M}\p{N}'’\- ]/gu, ' ').trim();
}

function parseEspeakPhonemes(out: string): string[] {
  const phones: string[] = [];
  const noSwitch = out.replace(/\([a-z-]+\)/gi, ' ');
  for (const piece of noSwitch.split(/[\s_|]+/)) {
    const p = piece.replace(STRESS_AND_BREAKS, '').normalize('NFC');
    if (!p) continue;
    // eSpeak already segments with "_"; a piece that still holds several letters is a unit it chose
    // (affricate, diphthong), except for a few cases where a modifier letter stands on its own.
    if (MODIFIERS.has(p) && phones.length > 0) phones[phones.length - 1] += p;
    else phones.push(p);
  }
  return phones;
}

/**
 * IPA phones of each token, read by eSpeak NG with the language's voice. One WASM instance is created
 * on first use and reused. A token that gives no phones (empty, symbols) gets []. `lang` is a code, or
 * a language already resolved (its regional voice kept).
 */
export async function espeakIpa(tokens: string[], lang: string | LanguageInfo): Promise<string[][]> {
  const info = typeof lang === 'string' ? resolveLanguage(lang) : lang;
  if (!info.espeakVoice) throw new Error(`eSpeak NG has no voice for language "${info.iso3}"`);
  const handle = await getEspeak();
  if (handle.voice !== info.espeakVoice) {
    const rc = handle.worker.set_voice(info.espeakVoice);
    if (rc !== 0) throw new Error(`eSpeak NG could not select voice "${info.espeakVoice}" (code ${rc})`);
    handle.voice = info.espeakVoice;
  }
  return tokens.map((token) => {
    const text = cleanForEspeak(token);
    if (!text) return [];
    const ptr = handle.worker.convert_to_phonemes(text, true).ptr;
    if (!ptr) return [];
    return parseEspeakPhonemes(readCString(handle.module.HEAPU8, ptr));
  });
}

// ---------------------------------------------------------------- Arabic letter rules

const CONSONANTS: Readonly<Record<string, string>> = {
  ء: 'ʔ',
  أ: 'ʔ',
  إ: 'ʔ',
  ؤ: 'ʔ',
  ئ: 'ʔ',
  ب: 'b',
  ت: 't',
  ث: 'θ',
  ج: 'dʒ',
  ح: 'ħ',
  خ: 'x',
  د: 'd',
  ذ: 'ð',
  ر: 'r',
  ز: 'z',
  س: 's',
  ش: 'ʃ',
  ص: 'sˤ',
  ض: 'dˤ',
  ط: 'tˤ',
  ظ: 'ðˤ',
  ع: 'ʕ',
  غ: 'ɣ',
  ف: 'f',
  ق: 'q',
  ك: 'k',
  ک: 'k',
  ل: 'l',
  م: 'm',
  ن: 'n',
  ه: 'h',
  ھ: 'h',
  و: 'w',
  ي: 'j',
  ی: 'j',
  پ: 'p',
  چ: 'tʃ',
  ژ: 'ʒ',
  گ: 'ɡ',
  ڤ: 'v',
  ڥ: 'v',
  ڨ: 'ɡ',
};
const SUN_LETTERS = new Set([...'تثدذرزسشصضطظلن']);
const ANY_SHORT = ['a', 'i', 'u', ''];
const VOWEL_OF: Readonly<Record<string, string>> = { [FATHA]: 'a', [DAMMA]: 'u', [KASRA]: 'i' };

interface Unit {
  base: string;
  marks: string;
}

function units(word: string): Unit[] {
  const out: Unit[] = [];
  for (const ch of word) {
    if ((isHaraka(ch) || ch === DAGGER_ALIF) && out.length > 0) {
      const last = out[out.length - 1];
      if (last) last.marks += ch;
    } else if (ch === 'آ' || CONSONANTS[ch] || 'اٱىة'.includes(ch)) {
      out.push({ base: ch, marks: '' });
    }
  }
  return out;
}

function shortVowel(marks: string): string | null {
  for (const m of marks) if (VOWEL_OF[m]) return VOWEL_OF[m] ?? null;
  return null;
}

/**
 * Pronunciation lattice of one Arabic-script word: a sequence of slots, each listing the IPA
 * alternatives for that position ('' = the slot may be silent). Diacritics decide when present;
 * where they are missing the slots offer the short vowels so the aligner can choose.
 */
export function arabicPronunciationLattice(token: string): string[][] {
  // مائة / مائتان (also inside ثلاثمائة ...): the alef is a spelling convention, the word is mi'a.
  const written = arabicPronunciationForm(token);
  const vowelled = /[\u064B-\u0650\u0652]/.test(written);
  const form = written.replace(/م[\u064B-\u0652]*ا(?=[\u064B-\u0652]*ئ)/g, 'مِ');
  // The name of God is spelled without its long ā (and, when vowelled, often with a dagger alif).
  const plainForm = arabicPlain(form);
  const allah = plainForm === 'لله' ? ['لله', 'ل'] : /^([وفبت]?)ا?لله$/.exec(plainForm);
  if (allah) {
    const prefix = allah[1] ?? '';
    const head: string[][] = prefix
      ? [[CONSONANTS[prefix] ?? ''], [prefix === 'ب' || prefix === 'ل' ? 'i' : 'a']]
      : [
          ['ʔ', ''],
          ['a', ''],
        ];
    return [...head, ['l'], ['l'], ['aː', 'a'], ['h'], ['u', 'i', 'a', '']];
  }
  // the frequent words whose vowels the letters do not give (في, على, هذا ...), as read in the grammar
  const listed = vowelled ? null : functionWordLattice(plainForm);
  if (listed) return listed;
  const us = units(form);
  const slots: string[][] = [];
  const push = (...alts: string[]): void => {
    slots.push([...new Set(alts)]);
  };

  // The definite article (after an optional one-letter prefix و ف ب ك ل): its alef is a hamzat wasl
  // and its lam assimilates to a following sun letter.
  let articleAlef = -1;
  let articleLam = -1;
  for (const start of [0, 1]) {
    const a = us[start];
    const l = us[start + 1];
    if (!a || !l || l.base !== 'ل' || (a.base !== 'ا' && a.base !== ALEF_WASLA)) continue;
    if (start === 1 && !PROCLITICS[us[0]?.base ?? '']) continue;
    if (vowelled && shortVowel(l.marks) !== null) continue; // a lam with a vowel is not the article
    if (us.length - (start + 2) < 2) continue; // "ال" + at least two letters
    articleAlef = start;
    articleLam = start + 1;
    break;
  }
  // "لل" = preposition li- + article with its alef dropped (لِلْبَيْتِ, لِّلْمُتَّقِينَ).
  if (articleAlef < 0 && us[0]?.base === 'ل' && us[1]?.base === 'ل' && us.length >= 4) {
    if (!vowelled || shortVowel(us[1].marks) === null) articleLam = 1;
  }

  for (let i = 0; i < us.length; i++) {
    const u = us[i] as Unit;
    const next = us[i + 1];
    const isLast = i === us.length - 1;
    const { base, marks } = u;
    const vowel = shortVowel(marks);
    const hasShadda = marks.includes(SHADDA);
    const hasSukun = marks.includes(SUKUN);
    const hasDagger = marks.includes(DAGGER_ALIF);

    // --- alef, alef wasla
    if (base === 'ا' || base === ALEF_WASLA) {
      if (i === articleAlef && i > 0) continue; // و/ف/ب/ك + ال: the alef is not spoken
      if (i === 0) {
        // hamzat wasl: spoken ʔ + vowel only at the start of an utterance
        push('ʔ', '');
        if (i === articleAlef) push('a', '');
        else if (vowel) push(vowel, '');
        else push(...ANY_SHORT);
        continue;
      }
      if (base === ALEF_WASLA) continue; // silent inside a word
      const prev = us[i - 1];
      if (prev?.marks.includes(FATHATAN)) continue; // the alef carrying tanwin fath (ًا) is silent
      if (isLast && prev?.base === 'و') continue; // alef al-fasila (كَتَبُوا)
      if (marks.includes(FATHATAN)) continue; // اً: the tanwin was already read from the letter before
      if (
        i === 1 &&
        articleAlef < 0 &&
        !vowelled &&
        next?.base === 'ل' &&
        'وفبك'.includes(prev?.base ?? '')
      ) {
        push('aː', ''); // unvowelled: و + ال (wa-l-) or a long ā (والد)
        continue;
      }
      if (isLast && !vowelled) {
        push('aː', 'a'); // final ā, or the accusative tanwin (كتابا = kitāban) written without marks
        push('', 'n');
        continue;
      }
      push('aː');
      continue;
    }
    if (base === 'آ') {
      push('ʔ');
      push('aː');
      continue;
    }

    // --- alef maqsura: ā after fatha (or unmarked), ī in the old spelling of ي without dots
    if (base === 'ى') {
      const prevVowel = shortVowel(us[i - 1]?.marks ?? '');
      if (us[i - 1]?.marks.includes(FATHATAN)) continue; // ـًى: read with the letter before
      if (marks.includes(FATHATAN)) {
        push('a', 'aː');
        push('n', '');
      } else if (prevVowel === 'i') push('iː');
      else if (prevVowel === 'a' || hasDagger || vowelled) push('aː');
      else push('aː', 'iː');
      continue;
    }

    // --- ta marbuta: t in construct, h or nothing at a pause
    if (base === 'ة') {
      push('t', 'h', '');
      pushVowel(marks, true);
      // unvowelled: a noun in ة read in full may end in tanwin (risālatan, madrasatun)
      if (!vowelled) push('', 'n');
      continue;
    }

    // --- waw / yaa as long vowels after their matching short vowel
    if (
      (base === 'و' || base === 'ي' || base === 'ی') &&
      i > 0 &&
      i - 1 !== articleLam && // the first letter after the article is a consonant (al-walad, al-yawm)
      !hasShadda &&
      vowel === null &&
      !/[\u064B-\u064D]/.test(marks) &&
      !hasSukun
    ) {
      const prev = us[i - 1] as Unit;
      const prevVowel = shortVowel(prev.marks);
      const long = base === 'و' ? 'uː' : 'iː';
      const matching = base === 'و' ? 'u' : 'i';
      if (vowelled && prevVowel === matching) {
        slots.pop(); // the short vowel slot of the previous letter becomes the long vowel
        push(long);
        continue;
      }
      if (!vowelled && prevVowel === null && !marks.includes(FATHATAN)) {
        if (isLast && base !== 'و') {
          // a final ī, or the nisba ending -iyy with its case vowel (ṣaḥafiyy-u, ʕarabiyy-a)
          push('iː', 'j', 'ijj');
          push('', 'a', 'i', 'u');
          continue;
        }
        push(long, base === 'و' ? 'w' : 'j');
        if (!isLast) push('', 'a');
        continue;
      }
    }

    const phone = CONSONANTS[base];
    if (!phone) continue;

    // --- assimilated lam of the article before a sun letter
    if (i === articleLam && next && SUN_LETTERS.has(next.base)) continue;

    // --- consonants
    push(phone);
    // لِّلْ (Uthmani li- + article): the shadda stands for the next lam, already written
    const mergedLam = base === 'ل' && next?.base === 'ل';
    const geminated =
      (hasShadda && !mergedLam) || (i - 1 === articleLam && SUN_LETTERS.has(base) && !vowelled && i > 0);
    if (geminated) push(phone);
    if (hasDagger) {
      push('aː');
      continue;
    }
    if (hasSukun) continue;
    if (vowel !== null || /[\u064B-\u064D]/.test(marks)) {
      const longFollows =
        vowel === 'a' && next && (next.base === 'ا' || next.base === 'ى') && i + 1 !== articleAlef;
      if (longFollows && !/[\u064B-\u064D]/.test(marks)) continue; // fatha + ا/ى = ā, read there
      pushVowel(marks, isLast);
      continue;
    }
    if (i === articleLam) continue; // the moon-letter lam of the article has no vowel
    // no vowel written: choose, unless a long-vowel letter follows that carries it
    if (next && (next.base === 'ا' || next.base === 'ى') && i + 1 !== articleAlef) continue;
    if (vowelled && !isLast) continue; // a fully vowelled word leaves sukun unwritten at times
    // a conjunction or preposition written onto the article has its own vowel (wa-, fa-, bi-, ka-)
    const proclitic = i === 0 && articleAlef === 1 ? PROCLITICS[base] : undefined;
    if (proclitic) {
      push(proclitic.vowel);
      continue;
    }
    if (next && (next.base === 'و' || next.base === 'ي' || next.base === 'ی') && !vowelled) {
      // aw/ay diphthongs, or the short vowel before a doubled w/y (quwwa, ʕarabiyya, thamāniya)
      push('', 'a', next.base === 'و' ? 'u' : 'i');
      continue;
    }
    push(...ANY_SHORT);
  }

  function pushVowel(marks: string, final: boolean): void {
    if (marks.includes(FATHATAN)) {
      push('a', 'aː');
      push('n', '');
    } else if (marks.includes(DAMMATAN)) {
      push('u', '');
      push('n', '');
    } else if (marks.includes(KASRATAN)) {
      push('i', '');
      push('n', '');
    } else {
      const v = shortVowel(marks);
      if (v) push(...(final ? [v, ''] : [v]));
      else if (final) push(...ANY_SHORT);
    }
  }

  // Drop slots that can only be silent.
  return slots.filter((s) => s.some((alt) => alt !== ''));
}
