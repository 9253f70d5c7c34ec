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

export function requestLanguage(request: FastifyRequest): UiLanguage {
  return negotiateLanguage(request.query, request.headers['accept-language']);
}
