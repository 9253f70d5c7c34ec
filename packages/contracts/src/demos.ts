// The public demo gallery: alignments published with a title, category, description and licence.
import { z } from 'zod';
import { AlignmentResult } from './alignment-result.ts';
import type { UiLanguage } from './limits.ts';

export const DEMO_DURATIONS = ['short', 'medium', 'long'] as const;

export const Demo = z.object({
  id: z.string(),
  title: z.string(),
  language: z.string(),
  category: z.string(),
  description: z.string(),
  licence: z.string(),
  source: z.string(),
  duration: z.number().nullable(),
  words: z.number().int().nullable(),
  confidence: z.number().nullable(),
  audio_url: z.string(),
  created_at: z.string(),
});
export type Demo = z.infer<typeof Demo>;

export const DemoDetail = Demo.extend({
  original_text: z.string(),
  processed_text: z.string().nullable(),
  result: AlignmentResult,
});

export const DemoListQuery = z.object({
  q: z.string().max(200).optional(),
  category: z.string().max(60).optional(),
  language: z.string().max(3).optional(),
  duration: z.enum(DEMO_DURATIONS).optional().describe('short < 30 s, medium 30 s – 2 min, long > 2 min'),
});

export const DemoList = z.object({
  count: z.number().int(),
  preparing: z
    .number()
    .int()
    .describe('demos still being aligned (a fresh server seeds them at its first start); not in results yet'),
  categories: z.array(z.string()),
  languages: z.array(z.string()),
  results: z.array(Demo),
});

export const DemoPublish = z
  .object({
    alignment_id: z.string(),
    title: z.string().trim().min(1).max(200),
    category: z.string().trim().min(1).max(60),
    description: z.string().max(2000).default(''),
    licence: z.string().trim().min(1).max(200),
    source: z.string().max(500).default(''),
  })
  .strict();

/** A manifest text given once, or per interface language with English as the fallback. */
export const LocalisedText = z.union([
  z.string(),
  z.object({ en: z.string(), fr: z.string().optional(), ar: z.string().optional() }).strict(),
]);
export type LocalisedText = z.infer<typeof LocalisedText>;

/** The form kept in a text column: a plain string as is, the per-language form as its JSON. */
export function storeLocalised(value: LocalisedText): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The stored text in `lang` (English when that language is missing); plain strings are returned as is. */
export function pickLocalised(stored: string, lang: UiLanguage): string {
  if (!stored.startsWith('{"en":')) return stored;
  try {
    const parsed = LocalisedText.parse(JSON.parse(stored));
    return typeof parsed === 'string' ? parsed : (parsed[lang] ?? parsed.en);
  } catch {
    return stored;
  }
}

/** One entry of a demo media folder's `demos.json` manifest. */
export const DemoManifestEntry = z.object({
  key: z.string().min(1).describe('stable id: seeding is idempotent per key'),
  title: z.string(),
  language: z.string().regex(/^[a-z]{3}$/),
  category: z.string(),
  description: LocalisedText.default(''),
  licence: LocalisedText,
  source: LocalisedText.default(''),
  audio: z.string().describe('path relative to the manifest'),
  text: z.string().optional(),
  text_file: z.string().optional().describe('UTF-8 transcript, relative to the manifest'),
  text_json: z
    .object({ file: z.string(), key: z.string() })
    .optional()
    .describe('take the transcript from a key of a JSON file (eval sets)'),
});
export const DemoManifest = z.object({ demos: z.array(DemoManifestEntry) });
export type DemoManifestEntry = z.infer<typeof DemoManifestEntry>;
