// The align and export commands' arguments (node:util parseArgs), and their flags mapped onto the
// platform's request options (contracts' AlignmentOptions, checked by its schema), from which the engine's
// options come through the one mapping the server uses too (engineOptionsOf).
import { resolve } from 'node:path';
import { parseArgs as parseNodeArgs } from 'node:util';
import { AlignmentOptions, ENGINES, engineOptionsOf } from '@tazamun/contracts/alignment-options';
import { PRECISIONS } from '@tazamun/contracts/limits';
import type { AlignOptions } from '../engine.ts';

const OPTIONS = {
  lang: { type: 'string' },
  format: { type: 'string' },
  o: { type: 'string', short: 'o' },
  out: { type: 'string' },
  title: { type: 'string' },
  precision: { type: 'string' },
  engine: { type: 'string' },
  ipa: { type: 'boolean' },
  'no-normalize': { type: 'boolean' },
  'no-numbers': { type: 'boolean' },
  'remove-fillers': { type: 'boolean' },
  'no-recognition': { type: 'boolean' },
  threads: { type: 'string' },
  manifest: { type: 'string' },
  'out-dir': { type: 'string' },
  jobs: { type: 'string' },
  corpus: { type: 'string' },
  model: { type: 'string' },
  iterations: { type: 'string' },
} as const;

export interface ParsedArgs {
  positional: string[];
  values: ReturnType<typeof parseValues>['values'];
}

function parseValues(args: string[]) {
  return parseNodeArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
}

/** Unknown options and options without their value are refused with node's own message. */
export function parseArgs(args: string[]): ParsedArgs {
  const { values, positionals } = parseValues(args);
  // -o, --o and --out name the same output
  return { positional: positionals, values: { ...values, o: values.o ?? values.out } };
}

/** "standard, high or ultra" */
const choices = (list: readonly string[]): string =>
  list.length > 1 ? `${list.slice(0, -1).join(', ')} or ${list.at(-1)}` : list.join('');

/** The flags as the platform's request options: one schema checks them, the server's and the CLI's. */
export function requestOptions(p: ParsedArgs): AlignmentOptions {
  const v = p.values;
  const parsed = AlignmentOptions.safeParse({
    precision: v.precision,
    engine: v.engine,
    input_kind: v.ipa ? 'ipa' : 'orthography',
    normalize: !v['no-normalize'],
    numbers_to_words: !v['no-numbers'],
    remove_fillers: v['remove-fillers'] === true,
  });
  if (parsed.success) return parsed.data;
  const field = parsed.error.issues[0]?.path[0];
  if (field === 'precision') throw new Error(`--precision must be ${choices(PRECISIONS)}`);
  if (field === 'engine') throw new Error(`--engine must be ${choices(ENGINES)}`);
  throw new Error(parsed.error.issues.map((i) => i.message).join('; '));
}

/** The pass for WER/CER, unless --no-recognition. */
export const recognitionOf = (p: ParsedArgs): boolean => !p.values['no-recognition'];

/** The engine's options for one file aligned in this process. */
export function alignOptions(p: ParsedArgs, lang: string): AlignOptions {
  return {
    lang,
    ...engineOptionsOf(requestOptions(p)),
    recognition: recognitionOf(p),
    ...(p.values.threads !== undefined ? { threads: threadCount(p.values.threads) } : {}),
    // an adapted model's folder (tazamun adapt)
    ...(p.values.model !== undefined ? { model: resolve(p.values.model) } : {}),
  };
}

function threadCount(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error('--threads must be a whole number of at least 1');
  return n;
}
