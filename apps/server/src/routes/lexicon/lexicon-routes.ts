// /api/lexicon/: the caller's own pronunciations, used by the aligner before the model's dictionary and
// eSpeak. Import and export use the Montreal Forced Aligner's dictionary layout: one word per line, a
// tab, then its phones separated by spaces (MFA's optional probability columns are read and ignored).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ISO_639_3 } from '@tazamun/contracts/alignments';
import {
  LEXICON_IMPORT_MAX_BYTES,
  LEXICON_IMPORT_REPORT_MAX,
  LEXICON_MAX_ENTRIES,
  LexiconEntry,
  LexiconEntryCreate,
  LexiconImportResult,
  LexiconList,
  LexiconQuery,
  PronunciationPreview,
  PronunciationPreviewRequest,
} from '@tazamun/contracts/lexicon';
import { previewPronunciations } from '@tazamun/aligner/pronunciation';
import { resolveLanguage } from '@tazamun/aligner/backends';
import { ipaToPhones, pronunciationPhones, unknownIpaSymbols } from '@tazamun/aligner/pronunciation';
import { protectFormula, unprotectFormula } from '@tazamun/aligner/formats';
import {
  countLexicon,
  deleteLexiconEntry,
  lexiconFor,
  listLexicon,
  upsertLexiconEntry,
} from '../../db/lexicon.ts';
import type { LexiconEntryRow } from '../../db/schema.ts';
import { createError, fieldError } from '../../errors.ts';
import { contentDisposition } from '../../media/send-file.ts';
import { auth, requireApproved } from '../../plugins/auth-guard.ts';

const present = (r: LexiconEntryRow): LexiconEntry => ({
  id: r.id,
  language: r.language,
  word: r.word,
  ipa: r.ipa,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const LanguageQuery = z.object({ language: z.string().regex(ISO_639_3) });

/** Why an IPA string cannot be stored as it is, or null (the same rule for one entry and for imports). */
export function ipaProblem(ipa: string): string | null {
  const unknown = unknownIpaSymbols(ipa);
  if (unknown.length > 0) return `not IPA: ${unknown.map((c) => JSON.stringify(c)).join(' ')}`;
  if (ipaToPhones(ipa).length === 0) return 'no IPA phone in it';
  return null;
}

/** One MFA dictionary line: word, optional numeric columns, phones. */
export function parseDictionaryLine(line: string): { word: string; ipa: string } | string | null {
  const trimmed = line.replace(/\r$/, '');
  if (!trimmed.trim() || trimmed.startsWith('#')) return null;
  const cols = trimmed.includes('\t') ? trimmed.split('\t') : trimmed.trim().split(/\s+(.*)/s);
  const word = unprotectFormula(cols[0]?.trim() ?? '');
  const rest = cols.slice(1).filter((c) => !/^\s*\d+(\.\d+)?\s*$/.test(c));
  const ipa = rest.join(' ').trim();
  if (!word || /\s/.test(word)) return 'expected a word, a tab and its phones';
  if (!ipa) return 'no pronunciation after the word';
  if (word.length > 100 || ipa.length > 200) return 'the word or its pronunciation is too long';
  return { word, ipa };
}

export const lexiconRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  // the import's body is the dictionary itself
  app.addContentTypeParser(
    ['text/tab-separated-values', 'text/plain'],
    { parseAs: 'string', bodyLimit: LEXICON_IMPORT_MAX_BYTES },
    (_req, body, done) => done(null, body),
  );

  const roomFor = async (userId: string, adding: number) => {
    if ((await countLexicon(deps.db, userId)) + adding > LEXICON_MAX_ENTRIES)
      throw fieldError({
        non_field_errors: [`This value is invalid: a lexicon holds at most ${LEXICON_MAX_ENTRIES} entries.`],
      });
  };

  app.get(
    '/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['lexicon'],
        summary: 'The caller’s lexicon, by language and word',
        querystring: LexiconQuery,
        response: { 200: LexiconList },
      },
    },
    async (request) => {
      const rows = await listLexicon(deps.db, auth(request).user.id, request.query.language);
      return { count: rows.length, results: rows.map(present) };
    },
  );

  app.post(
    '/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['lexicon'],
        summary: 'Add a word’s pronunciation (IPA), or replace the one it has',
        body: LexiconEntryCreate,
        response: { 201: LexiconEntry },
      },
    },
    async (request, reply) => {
      const userId = auth(request).user.id;
      const problem = ipaProblem(request.body.ipa);
      if (problem) throw fieldError({ ipa: [`This value is invalid: ${problem}.`] });
      await roomFor(userId, 1);
      const row = await upsertLexiconEntry(deps.db, userId, request.body, deps.clock.now().toISOString());
      return reply.code(201).send(present(row));
    },
  );

  app.delete(
    '/:id/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['lexicon'],
        summary: 'Remove an entry',
        params: z.object({ id: z.string().min(1).max(64) }),
      },
    },
    async (request, reply) => {
      if ((await deleteLexiconEntry(deps.db, auth(request).user.id, request.params.id)) === 0)
        throw createError('not_found');
      return reply.code(204).send();
    },
  );

  app.get(
    '/export/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['lexicon'],
        summary: 'The lexicon of one language as an MFA dictionary (word TAB phones)',
        querystring: LanguageQuery,
      },
    },
    async (request, reply) => {
      const { language } = request.query;
      const rows = await listLexicon(deps.db, auth(request).user.id, language);
      // phones as the alignment reads them: a diphthong stays one phone (aɪ, not a ɪ); a spreadsheet
      // opening the file must not run a word as a formula (the import undoes the guard); words and phones
      // hold no tab or line break, so the dictionary layout needs no quoting
      const cell = (s: string) => protectFormula(s);
      const body = rows
        .map((r) => `${cell(r.word)}\t${cell(pronunciationPhones(r.ipa).join(' '))}\n`)
        .join('');
      return reply
        .type('text/tab-separated-values; charset=utf-8')
        .header('content-disposition', contentDisposition(`lexicon-${language}.dict`))
        .send(body);
    },
  );

  app.post(
    '/import/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['lexicon'],
        summary: 'Add the words of an MFA dictionary (body: text/tab-separated-values) to one language',
        querystring: LanguageQuery,
        response: { 200: LexiconImportResult },
      },
    },
    async (request) => {
      const userId = auth(request).user.id;
      if (typeof request.body !== 'string')
        throw createError(
          'bad_request',
          {},
          { non_field_errors: ['Send the dictionary as text/tab-separated-values.'] },
        );
      const entries = new Map<string, string>();
      const skipped: { line: number; reason: string }[] = [];
      let skippedCount = 0;
      // every refused line is counted; the first ones are listed (1 MB of bad lines made a 4.7 MB answer)
      const skip = (line: number, reason: string) => {
        skippedCount += 1;
        if (skipped.length < LEXICON_IMPORT_REPORT_MAX) skipped.push({ line, reason });
      };
      request.body.split('\n').forEach((line, k) => {
        const got = parseDictionaryLine(line);
        if (got === null) return;
        if (typeof got === 'string') return skip(k + 1, got);
        const problem = ipaProblem(got.ipa);
        if (problem) return skip(k + 1, problem);
        // MFA lists a word once per pronunciation; the aligner takes one: the first
        if (entries.has(got.word.toLowerCase()))
          return skip(k + 1, 'the word has a pronunciation on an earlier line; the first is kept');
        entries.set(got.word.toLowerCase(), got.ipa);
      });
      await roomFor(userId, entries.size);
      const nowIso = deps.clock.now().toISOString();
      for (const [word, ipa] of entries)
        await upsertLexiconEntry(deps.db, userId, { language: request.query.language, word, ipa }, nowIso);
      return { imported: entries.size, skipped, skipped_count: skippedCount };
    },
  );

  app.post(
    '/preview/',
    {
      onRequest: requireApproved,
      schema: {
        tags: ['lexicon'],
        summary: 'The words of a transcript the aligner would pronounce by rule or by eSpeak, with their IPA',
        description:
          'Runs the aligner’s pronunciation step on the text only (no audio, no acoustic model): each ' +
          'distinct word pronounced by the Arabic letter rules (`rules`) or by eSpeak (`espeak`), with the ' +
          'IPA it would use. Words of the caller’s lexicon or of the model’s dictionary are left out, ' +
          'unless `all_words` (then every word, with its source and IPA); `ignore_lexicon` answers as if ' +
          'the caller’s lexicon were empty (what their entries replace).',
        body: PronunciationPreviewRequest,
        response: { 200: PronunciationPreview },
      },
    },
    async (request) => {
      const { language, text, input_kind, all_words, ignore_lexicon } = request.body;
      let iso3: string;
      try {
        iso3 = resolveLanguage(language).iso3;
      } catch {
        throw createError(
          'language_unsupported',
          { code: language },
          { language: ['This value is invalid.'] },
        );
      }
      const lexicon = ignore_lexicon ? [] : await lexiconFor(deps.db, auth(request).user.id, iso3);
      const words = await previewPronunciations(text, iso3, { lexicon, inputKind: input_kind });
      return {
        language: iso3,
        words: all_words ? words : words.filter((w) => w.source === 'espeak' || w.source === 'rules'),
      };
    },
  );
};
