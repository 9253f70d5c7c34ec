// Which interface language an error message is written in: ?lang= first, then Accept-Language, and
// English for API clients that say nothing.
import type { FastifyRequest } from 'fastify';
import { UI_LANGUAGES } from '@tazamun/contracts/limits';
import type { UiLanguage } from '@tazamun/contracts/limits';

const isUi = (v: string): v is UiLanguage => (UI_LANGUAGES as readonly string[]).includes(v);

export function negotiateLanguage(query: unknown, acceptLanguage: string | undefined): UiLanguage {
  const q = (query as Record<string, unknown> | undefined)?.lang;
  if (typeof q === 'string' && isUi(q.toLowerCase())) return q.toLowerCase() as UiLanguage;
  if (acceptLanguage) {
    const ranked = acceptLanguage
      .split(',')
      .map((part, i) => {
        const [tag = '', ...params] = part.trim().split(';');
        const qp = params.find((p) => p.trim().startsWith('q='));
        const weight = qp ? Number(qp.trim().slice(2)) : 1;
        return {
          lang: tag.trim().toLowerCase().split('-')[0] ?? '',
          weight: Number.isNaN(weight) ? 0 : weight,
          i,
        };
      })
      .filter((x) => x.weight > 0)
      .sort((a, b) => b.weight - a.weight || a.i - b.i);
    for (const r of ranked) if (isUi(r.lang)) return r.lang;
  }
  return 'en';
}

/**
 * Read from the request's own URL, not `request.query`: a route's query schema drops the keys it does
 * not name, and `lang` is named by none.
 */
export function requestLanguage(request: FastifyRequest): UiLanguage {
  const url = request.raw.url ?? request.url;
  const at = url.indexOf('?');
  const lang = at < 0 ? null : new URLSearchParams(url.slice(at + 1)).get('lang');
  return negotiateLanguage(lang === null ? {} : { lang }, request.headers['accept-language']);
}
