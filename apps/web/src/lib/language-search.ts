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

export function languageOptions(entries: readonly Entry[], uiLanguage: string): LanguageOption[] {
  return entries.map((e) => {
    const tag = e.iso1 ?? e.code;
    const label = displayName(tag, uiLanguage) ?? e.name;
    const autonym = displayName(tag, tag);
    const keys = [e.code, e.iso1, e.name, label, autonym, displayName(tag, 'en')]
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
