// Public catalogue routes: supported languages and the platform's figures for the landing page.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listLanguages } from '@tazamun/aligner/backends';
import { HMM_NATIVE_LANGUAGES, availableEngines } from '@tazamun/aligner/backends';
import { LanguagesResponse, PublicStats } from '@tazamun/contracts/alignments';
import { completedTotals } from '../../db/alignments.ts';

export function languageCatalogue() {
  const engines = availableEngines();
  const mms = engines.find((e) => e.id === 'mms')?.available ?? false;
  const results = listLanguages().map((l) => ({
    code: l.iso3,
    iso1: l.iso1 ?? null,
    name: l.name,
    script: l.script ?? null,
    rtl: l.rtl,
    routes: l.routes,
    engines: mms ? ['hmm', 'mms'] : ['hmm'],
    native_model: HMM_NATIVE_LANGUAGES.has(l.iso3),
  }));
  return { count: results.length, engines, results };
}

export const languageRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.deps.db;
  let cached: ReturnType<typeof languageCatalogue> | null = null;

  app.get(
    '/languages/',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Every language the engine can align, with its pronunciation routes and engines',
        security: [],
        response: { 200: LanguagesResponse },
      },
    },
    async () => (cached ??= languageCatalogue()),
  );

  app.get(
    '/stats/public/',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Platform figures for the landing page, counted from the database',
        security: [],
        response: { 200: PublicStats },
      },
    },
    async () => {
      const agg = await completedTotals(db);
      return {
        languages_supported: (cached ??= languageCatalogue()).count,
        alignments_completed: agg.count,
        hours_aligned: Math.round((agg.seconds / 3600) * 100) / 100,
        words_aligned: agg.words,
      };
    },
  );
};
