// The pronunciation step without audio: which source the aligner would take for each word of a
// transcript, in the hmm back-end's order (ipa input, the user's lexicon, the model's dictionary, the
// Arabic rules, eSpeak), and the IPA of the words worth checking (by rule or by eSpeak). Reads the
// model's dictionary file into a word set once; loads no acoustic model.
import { readFileSync } from 'node:fs';
import type { PronunciationSource } from '@tazamun/contracts/alignment-result';
import type { InputKind } from '@tazamun/contracts/alignment-options';
import { lexiconMap } from '../acoustic/backend.ts';
import type { LexiconEntry } from '../acoustic/backend.ts';
import { resolveHmmModel } from '../acoustic/hmm/models.ts';
import { MODEL_PHONE_IPA } from '../acoustic/hmm/phone-map.ts';
import { arabicPronunciationLattice, espeakIpa, ipaToPhones, pronunciationPhones } from './g2p.ts';
import { resolveLanguage } from './languages.ts';
import { normalizeTranscript } from './normalize.ts';

export interface PreviewWord {
  word: string;
  source: PronunciationSource;
  /**
   * phones separated by spaces; for the Arabic rules, the first reading of each slot; for the model's
   * dictionary, its first pronunciation with the model's labels written in IPA
   */
  ipa: string;
}

const dictionaries = new Map<string, Map<string, string>>();

/**
 * Words of the hmm model's dictionary for a language it was trained on (eng, fra), each with its first
 * pronunciation in the model's labels, else null.
 */
function dictionaryWords(lang3: string): Map<string, string> | null {
  const family = lang3 === 'eng' ? 'en' : lang3 === 'fra' ? 'fr' : null;
  if (!family) return null;
  let words = dictionaries.get(family);
  if (!words) {
    words = new Map();
    for (const line of readFileSync(resolveHmmModel(family).dict, 'utf8').split('\n')) {
      const [head = '', ...phones] = line.trim().split(/\s+/);
      const w = head.replace(/\(\d+\)$/, '');
      if (w && !words.has(w)) words.set(w, phones.join(' '));
    }
    dictionaries.set(family, words);
  }
  return words;
}

/** Every distinct token once, in the order of the text, with its source; IPA for rule and eSpeak words. */
export async function previewPronunciations(
  text: string,
  lang: string,
  options: { lexicon?: readonly LexiconEntry[]; inputKind?: InputKind } = {},
): Promise<PreviewWord[]> {
  const info = resolveLanguage(lang);
  const lexicon = lexiconMap(options.lexicon);
  const dict = dictionaryWords(info.iso3);
  const inputKind = options.inputKind ?? 'orthography';
  const { tokens } = normalizeTranscript(text, info, {
    inputKind,
    hasWord: dict ? (w) => lexicon.has(w.toLowerCase()) || dict.has(w.toLowerCase()) : undefined,
  });
  const seen = new Map<string, PreviewWord>();
  const needEspeak: PreviewWord[] = [];
  for (const t of tokens) {
    const key = t.text.normalize('NFC').toLowerCase();
    if (seen.has(key)) continue;
    const own = lexicon.get(key);
    let w: PreviewWord;
    if (inputKind === 'ipa') w = { word: t.text, source: 'ipa_input', ipa: ipaToPhones(t.text).join(' ') };
    else if (own !== undefined)
      w = { word: t.text, source: 'user_lexicon', ipa: pronunciationPhones(own).join(' ') };
    else if (dict?.has(key)) {
      const family = info.iso3 === 'fra' ? 'fr' : 'en';
      const ipa = dict
        .get(key)!
        .split(' ')
        .filter(Boolean)
        .map((p) => MODEL_PHONE_IPA[family][p] ?? p);
      w = { word: t.text, source: 'model_dictionary', ipa: ipa.join(' ') };
    } else if (info.routes[0] === 'arabic-rules' && /[\u0600-\u06FF]/.test(t.text)) {
      // each slot's first reading: the alternatives are in order of likelihood, a silent one first
      // where the letters usually carry no vowel there (الصحفي: ṣaḥafī, not ṣaḥafaīa)
      const first = arabicPronunciationLattice(t.text).map((slot) => slot[0] ?? '');
      w = { word: t.text, source: 'rules', ipa: first.filter(Boolean).join(' ') };
    } else {
      w = { word: t.text, source: 'espeak', ipa: '' };
      needEspeak.push(w);
    }
    seen.set(key, w);
  }
  if (needEspeak.length && info.espeakVoice) {
    const ipa = await espeakIpa(
      needEspeak.map((w) => w.word),
      info,
    );
    needEspeak.forEach((w, k) => (w.ipa = (ipa[k] ?? []).join(' ')));
  }
  return [...seen.values()];
}
