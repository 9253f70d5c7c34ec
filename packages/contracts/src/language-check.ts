// Which language a transcript is written in (franc-min: trigram statistics for the 80-odd languages with
// 8 million speakers or more, script tests for the rest), and whether that agrees with the language the
// user chose. Shared by the server (every result's detected_language and quality reasons) and the upload
// form (a warning as the user types), so both say the same thing about the same text.
import { francAll } from 'franc-min';
import { data } from 'franc-min/data.js';
import { expressions } from 'franc-min/expressions.js';

/** Fewer letters than this and the trigram statistics say little: no language is claimed. */
export const MIN_LETTERS_FOR_DETECTION = 20;

/**
 * Codes the detector answers with, gathered under one code per group: a macrolanguage and its members
 * (ara: arb, aeb, ary ...), and neighbours the trigrams cannot tell apart (Bosnian/Croatian/Serbian,
 * Malay/Indonesian). The chosen language and the detected one agree when they fall in one group.
 */
const GROUPS: Record<string, string[]> = {
  ara: [
    'arb',
    'aeb',
    'ary',
    'arz',
    'apc',
    'ajp',
    'acm',
    'afb',
    'ayl',
    'apd',
    'acq',
    'aec',
    'ars',
    'shu',
    'ssh',
  ],
  fas: ['pes', 'prs'],
  msa: ['zlm', 'zsm', 'ind'],
  zho: ['cmn', 'yue', 'wuu', 'nan', 'hak'],
  uzb: ['uzn', 'uzs'],
  aze: ['azj', 'azb'],
  swa: ['swh', 'swc'],
  hbs: ['bos', 'hrv', 'srp'],
  nep: ['npi'],
  kur: ['ckb', 'kmr'],
  pus: ['pbu', 'pst'],
  que: ['qug', 'quz', 'quy'],
  mlg: ['plt'],
  ful: ['fuv', 'fuf'],
  zha: ['zyb'],
  hmn: ['hms', 'hnj'],
  lah: ['skr', 'pnb'],
};
const GROUP_OF = new Map<string, string>();
for (const [macro, members] of Object.entries(GROUPS)) {
  GROUP_OF.set(macro, macro);
  for (const m of members) GROUP_OF.set(m, macro);
}
const groupOf = (code: string): string => GROUP_OF.get(code) ?? code;

/** Every group the detector can answer with: a chosen language outside them cannot be checked. */
const DETECTABLE = new Set<string>(
  [
    ...Object.values(data).flatMap((byScript) => Object.keys(byScript)),
    ...Object.keys(expressions).filter((k) => /^[a-z]{3}$/.test(k)),
  ].map(groupOf),
);

function letterCount(text: string): number {
  return (text.match(/\p{L}/gu) ?? []).length;
}

/**
 * A language within this share of the best trigram score is as likely an answer as the best one: on a
 * sentence or two the top languages of one family score close together (a TIMIT sentence scores deu 1,
 * eng 0.93), so the user's own choice is kept when it is among them.
 */
export const CLOSE_SCORE = 0.85;

/**
 * ISO 639-3 code of the transcript's language, or null when the text is too short to tell. With `hint`
 * (the chosen language), that language is the answer when it scores close to the best.
 */
export function detectLanguage(text: string, hint?: string): string | null {
  if (letterCount(text) < MIN_LETTERS_FOR_DETECTION) return null;
  const ranked = francAll(text, { minLength: MIN_LETTERS_FOR_DETECTION });
  const best = ranked[0];
  if (!best || best[0] === 'und') return null;
  if (hint) {
    const close = ranked.find(([code, s]) => s >= CLOSE_SCORE && sameLanguage(code, hint));
    if (close) return close[0];
  }
  return best[0];
}

/** True when the two ISO 639-3 codes name one language (or a macrolanguage and one of its members). */
export function sameLanguage(a: string, b: string): boolean {
  return groupOf(a) === groupOf(b);
}

export interface LanguageCheck {
  detected: string | null;
  /** the detector can tell the chosen language, found another one, and the text is long enough */
  disagrees: boolean;
}

/** `chosen` is the ISO 639-3 code the user picked; IPA transcripts are not checked (no orthography). */
export function checkLanguage(text: string, chosen: string, inputKind = 'orthography'): LanguageCheck {
  if (inputKind === 'ipa') return { detected: null, disagrees: false };
  const detected = detectLanguage(text, chosen);
  if (!detected) return { detected, disagrees: false };
  const canTell = DETECTABLE.has(groupOf(chosen));
  return { detected, disagrees: canTell && !sameLanguage(chosen, detected) };
}
