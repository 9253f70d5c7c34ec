import { describe, expect, it } from 'vitest';
import { ar } from './locales/ar.ts';
import { en } from './locales/en.ts';
import { fr } from './locales/fr.ts';
import { changeLanguage, directionOf, i18n, initI18n } from '../lib/i18n.ts';
import { contentDirection } from '../lib/content-direction.ts';

function flatten(obj: object, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(obj)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object') for (const [k, v] of flatten(value, path)) out.set(k, v);
    else out.set(path, value);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const tags = (text: string) => [...text.matchAll(/<(\w+)>/g)].map((m) => m[1]).sort();

const locales = { en: flatten(en), fr: flatten(fr), ar: flatten(ar) };
/** i18next's plural suffixes */
const PLURAL = /_(zero|one|two|few|many|other)$/;

describe('messages', () => {
  it('Arabic separates the parts of a line with its comma: a middle dot beside Arabic-Indic digits reads as ٠', () => {
    expect(locales.ar.get('common.separator')).toBe('، ');
    const dotted = [...locales.ar].filter(([, v]) => String(v).includes('·'));
    expect(dotted).toEqual([]);
  });

  it.each(['fr', 'ar'] as const)('%s has exactly the English keys, plural forms aside', (lang) => {
    const base = (keys: Iterable<string>) => new Set([...keys].map((k) => k.replace(PLURAL, '')));
    const own = base(locales[lang].keys());
    const english = base(locales.en.keys());
    expect([...english].filter((k) => !own.has(k))).toEqual([]);
    expect([...own].filter((k) => !english.has(k))).toEqual([]);
    // every plural form is a form of a message that exists without its suffix
    for (const k of locales[lang].keys())
      if (PLURAL.test(k)) expect(locales[lang].has(k.replace(PLURAL, ''))).toBe(true);
  });

  it.each(['en', 'fr', 'ar'] as const)('%s has no empty or non-string message', (lang) => {
    const bad = [...locales[lang]]
      .filter(([, v]) => typeof v !== 'string' || v.trim() === '')
      .map(([k]) => k);
    expect(bad).toEqual([]);
  });

  it.each(['fr', 'ar'] as const)('%s keeps the placeholders and markup of each English message', (lang) => {
    for (const [key, value] of locales.en) {
      if (PLURAL.test(key)) continue;
      const other = String(locales[lang].get(key));
      expect(placeholders(other), `${lang}:${key}`).toEqual(placeholders(String(value)));
      expect(tags(other), `${lang}:${key}`).toEqual(tags(String(value)));
    }
  });

  it.each(['en', 'fr', 'ar'] as const)(
    '%s plural forms keep the placeholders of their message ({count} may be written out)',
    (lang) => {
      for (const [key, value] of locales[lang]) {
        if (!PLURAL.test(key)) continue;
        const base = placeholders(String(locales[lang].get(key.replace(PLURAL, '')))).filter(
          (p) => p !== 'count',
        );
        expect(
          placeholders(String(value)).filter((p) => p !== 'count'),
          `${lang}:${key}`,
        ).toEqual(base);
      }
    },
  );

  it('writes the numbers of Arabic messages in Arabic-Indic digits (codes and names aside)', () => {
    // what may keep Latin digits: placeholders, standard and format names, the licence's identifier
    const CODES =
      /\{\w+\}|AGPL-3\.0-or-later|EPUB 3|ISO 639-[13]|639-[13]|UTF-8|MP[34]|M4A|base64|WebVTT|H\.264/g;
    const latin = [...locales.ar]
      .filter(([, text]) => /[0-9]/.test(String(text).replace(CODES, '')))
      .map(([key, text]) => `${key}: ${String(text)}`);
    expect(latin).toEqual([]);
  });

  it('picks the plural form of each language by its count', async () => {
    await initI18n('en');
    const t = (lang: 'en' | 'fr' | 'ar', key: string, count: number) =>
      i18n.getFixedT(lang)(key as never, { count } as never) as unknown as string;
    expect(t('en', 'demos.words', 1)).toBe('1 word');
    expect(t('en', 'demos.words', 2)).toBe('2 words');
    expect(t('fr', 'dashboard.stats.completed', 1)).toBe('1 terminé');
    expect(t('fr', 'dashboard.stats.completed', 3)).toBe('3 terminés');
    expect([1, 2, 3, 11, 100].map((n) => t('ar', 'profile.tokens.days', n))).toEqual([
      'يوم واحد',
      'يومان',
      '٣ أيام',
      '١١ يومًا',
      '١٠٠ يوم',
    ]);
    // numbers are written in the digits of the message's language
    expect(t('en', 'demos.words', 12345)).toBe('12,345 words');
    expect(t('ar', 'demos.words', 12)).toBe('عدد الكلمات: ١٢');
  });

  it('uses the spec French texts verbatim', () => {
    expect(fr.errors.noRefreshToken).toBe('Aucun refresh token disponible');
    expect(fr.errors.sessionExpired).toBe('Session expirée, veuillez vous reconnecter');
    expect(fr.errors.navigation).toBe('Erreur de navigation. Veuillez réessayer.');
    expect(fr.auth.errors.network).toBe(
      'Impossible de contacter le serveur. Vérifiez votre connexion internet.',
    );
    expect(fr.profile.account.error).toBe('Erreur lors de la mise à jour du profil');
    expect(fr.profile.password.error).toBe('Erreur lors du changement de mot de passe');
  });
});

describe('direction', () => {
  it('sets dir=rtl for Arabic and dir=ltr for French and English on <html>', async () => {
    await initI18n('ar');
    await changeLanguage('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar');
    await changeLanguage('fr');
    expect(document.documentElement.dir).toBe('ltr');
    await changeLanguage('en');
    expect(document.documentElement.dir).toBe('ltr');
    expect(localStorage.getItem('language')).toBe('en');
  });

  it('writes every Arabic variety of the catalogue right to left, and other transcripts left to right', () => {
    const varieties = ['ara', 'arb', 'aeb', 'arz', 'apc', 'ajp', 'ary', 'arq', 'acm', 'afb', 'ayl', 'apd'];
    expect([...varieties, 'acw', 'ars', 'ayn', 'shu'].map(contentDirection).every((d) => d === 'rtl')).toBe(
      true,
    );
    expect(['eng', 'fra', 'tur'].map(contentDirection)).toEqual(['ltr', 'ltr', 'ltr']);
  });

  it('treats he, fa and ur content as right-to-left', () => {
    expect(['he', 'fa', 'ur', 'ar-EG'].map(directionOf)).toEqual(['rtl', 'rtl', 'rtl', 'rtl']);
    expect(['fr', 'en', 'tr', ''].map(directionOf)).toEqual(['ltr', 'ltr', 'ltr', 'ltr']);
  });
});
