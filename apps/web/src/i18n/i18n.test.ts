import { describe, expect, it } from 'vitest';
import { ar } from './locales/ar.ts';
import { en } from './locales/en.ts';
import { fr } from './locales/fr.ts';
import { changeLanguage, directionOf, initI18n } from '../lib/i18n.ts';

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

describe('messages', () => {
  it.each(['fr', 'ar'] as const)('%s has exactly the English keys', (lang) => {
    const missing = [...locales.en.keys()].filter((k) => !locales[lang].has(k));
    const extra = [...locales[lang].keys()].filter((k) => !locales.en.has(k));
    expect(missing).toEqual([]);
    expect(extra).toEqual([]);
  });

  it.each(['en', 'fr', 'ar'] as const)('%s has no empty or non-string message', (lang) => {
    const bad = [...locales[lang]]
      .filter(([, v]) => typeof v !== 'string' || v.trim() === '')
      .map(([k]) => k);
    expect(bad).toEqual([]);
  });

  it.each(['fr', 'ar'] as const)('%s keeps the placeholders and markup of each English message', (lang) => {
    for (const [key, value] of locales.en) {
      const other = String(locales[lang].get(key));
      expect(placeholders(other), `${lang}:${key}`).toEqual(placeholders(String(value)));
      expect(tags(other), `${lang}:${key}`).toEqual(tags(String(value)));
    }
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

  it('treats he, fa and ur content as right-to-left', () => {
    expect(['he', 'fa', 'ur', 'ar-EG'].map(directionOf)).toEqual(['rtl', 'rtl', 'rtl', 'rtl']);
    expect(['fr', 'en', 'tr', ''].map(directionOf)).toEqual(['ltr', 'ltr', 'ltr', 'ltr']);
  });
});
