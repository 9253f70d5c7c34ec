// Finding an alignment language by what a person types: its ISO 639-3 code ("ara"), its ISO 639-1 code
// ("ar"), its English name from the catalogue ("Arabic"), its name in the interface language ("arabe")
// or its own name ("العربية"). Names other than the catalogue's come from the browser (Intl.DisplayNames).
import type { z } from 'zod';
import type { LanguageEntry } from '@tazamun/contracts/alignments';

type Entry = z.infer<typeof LanguageEntry>;

export interface LanguageOption {
  code: string;
  iso1: string | null;
  /** In the interface language when the browser knows it, else the catalogue's English name. */
  label: string;
  /** The language's name for itself ("العربية", "français"), when the browser knows it. */
  autonym: string | null;
  nativeModel: boolean;
  /** Every name and code, folded for matching. */
  keys: string[];
}

/** Lower case without accents or Arabic short vowels, so "Francais" finds "français". */
export function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('en').trim();
}

function displayName(code: string, inLanguage: string): string | null {
  try {
    const name = new Intl.DisplayNames([inLanguage], { type: 'language', fallback: 'none' }).of(code);
    return name && fold(name) !== fold(code) ? name : null;
  } catch {
    return null;
  }
}

/**
 * The Arabic varieties' names in the interface languages (the browser knows few of them, and names
 * Standard Arabic "arb" and the macrolanguage "ara" alike); English is the catalogue's.
 */
const OWN_NAMES: Record<string, { ar: string; fr: string }> = {
  ara: { ar: 'العربية', fr: 'arabe' },
  arb: { ar: 'العربية الفصحى', fr: 'arabe standard' },
  aeb: { ar: 'العربية التونسية', fr: 'arabe tunisien' },
  arz: { ar: 'العربية المصرية', fr: 'arabe égyptien' },
  apc: { ar: 'العربية الشامية (الشمالية)', fr: 'arabe levantin du Nord' },
  ajp: { ar: 'العربية الشامية (الجنوبية)', fr: 'arabe levantin du Sud' },
  ary: { ar: 'العربية المغربية', fr: 'arabe marocain' },
  arq: { ar: 'العربية الجزائرية', fr: 'arabe algérien' },
  acm: { ar: 'العربية العراقية', fr: 'arabe mésopotamien' },
  afb: { ar: 'العربية الخليجية', fr: 'arabe du Golfe' },
  ayl: { ar: 'العربية الليبية', fr: 'arabe libyen' },
  apd: { ar: 'العربية السودانية', fr: 'arabe soudanais' },
  acw: { ar: 'العربية الحجازية', fr: 'arabe hedjazi' },
  ars: { ar: 'العربية النجدية', fr: 'arabe najdi' },
  ayn: { ar: 'العربية الصنعانية', fr: 'arabe de Sanaa' },
  shu: { ar: 'العربية التشادية', fr: 'arabe tchadien' },
};
const ENGLISH_NAMES: Record<string, string> = { arb: 'Standard Arabic' };

function ownName(code: string, uiLanguage: string): string | null {
  const names = OWN_NAMES[code];
  if (!names) return null;
  if (uiLanguage === 'ar') return names.ar;
  if (uiLanguage === 'fr') return names.fr;
  return ENGLISH_NAMES[code] ?? null;
}

export function languageOptions(entries: readonly Entry[], uiLanguage: string): LanguageOption[] {
  const options = entries.map((e) => {
    const tag = e.iso1 ?? e.code;
    const label = ownName(e.code, uiLanguage) ?? displayName(tag, uiLanguage) ?? e.name;
    const autonym = OWN_NAMES[e.code]?.ar ?? displayName(tag, tag);
    const keys = [e.code, e.iso1, e.name, label, autonym, displayName(tag, 'en'), OWN_NAMES[e.code]?.fr]
      .filter((k): k is string => Boolean(k))
      .map(fold);
    return {
      code: e.code,
      iso1: e.iso1,
      label,
      autonym,
      nativeModel: e.native_model,
      keys: [...new Set(keys)],
    };
  });
  // Two languages the browser names alike keep apart by their codes ("X (abc)").
  const counts = new Map<string, number>();
  for (const o of options) counts.set(o.label, (counts.get(o.label) ?? 0) + 1);
  return options.map((o) => ((counts.get(o.label) ?? 0) > 1 ? { ...o, label: `${o.label} (${o.code})` } : o));
}

/** The one language the text names exactly (a code or a full name), else null. */
export function resolveLanguageText(options: readonly LanguageOption[], text: string): LanguageOption | null {
  const q = fold(text);
  if (!q) return null;
  return options.find((o) => o.code === q || o.iso1 === q) ?? options.find((o) => o.keys.includes(q)) ?? null;
}

/** Matches best first: exact code or name, then names and codes that start with the text, then the rest
 *  that contain it. */
export function searchLanguages(
  options: readonly LanguageOption[],
  text: string,
  limit = 8,
): LanguageOption[] {
  const q = fold(text);
  if (!q) return options.filter((o) => o.nativeModel).slice(0, limit);
  const rank = (o: LanguageOption): number => {
    if (o.code === q || o.iso1 === q) return 0;
    if (o.keys.includes(q)) return 1;
    if (o.keys.some((k) => k.startsWith(q) || k.split(/[\s(),-]+/).some((w) => w.startsWith(q)))) return 2;
    if (o.keys.some((k) => k.includes(q))) return 3;
    return 4;
  };
  return options
    .map((o) => ({ o, r: rank(o) }))
    .filter((x) => x.r < 4)
    .sort(
      (a, b) =>
        a.r - b.r || Number(b.o.nativeModel) - Number(a.o.nativeModel) || a.o.label.localeCompare(b.o.label),
    )
    .slice(0, limit)
    .map((x) => x.o);
}
