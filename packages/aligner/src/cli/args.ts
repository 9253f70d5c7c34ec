// Shared option parsing for the align command and its batch workers.
import { resolve } from 'node:path';
import type { AlignOptions } from '../engine.ts';
import type { Precision } from '../acoustic/backend.ts';

export interface ParsedArgs {
  positional: string[];
  values: Map<string, string>;
  flags: Set<string>;
}

const VALUED = new Set([
  'lang',
  'format',
  'o',
  'out',
  'precision',
  'engine',
  'manifest',
  'out-dir',
  'jobs',
  'threads',
  'corpus',
  'title',
  'model',
  'iterations',
]);

export function parseArgs(args: string[]): ParsedArgs {
  const positional: string[] = [];
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('-')) {
      const [k, inline] = a.replace(/^--?/, '').split('=', 2) as [string, string | undefined];
      if (VALUED.has(k)) {
        const v = inline ?? args[++i];
        if (v === undefined) throw new Error(`option --${k} needs a value`);
        values.set(k === 'out' ? 'o' : k, v);
      } else flags.add(k);
    } else positional.push(a);
  }
  return { positional, values, flags };
}

export function alignOptions(p: ParsedArgs, lang: string): AlignOptions {
  const precision = (p.values.get('precision') ?? 'standard') as Precision;
  if (!['standard', 'high', 'ultra'].includes(precision))
    throw new Error(`--precision must be standard, high or ultra`);
  const engine = (p.values.get('engine') ?? 'auto') as AlignOptions['engine'];
  if (!['auto', 'hmm', 'mms'].includes(engine ?? '')) throw new Error('--engine must be auto, hmm or mms');
  return {
    lang,
    precision,
    engine,
    inputKind: p.flags.has('ipa') ? 'ipa' : 'orthography',
    normalize: !p.flags.has('no-normalize'),
    numbersToWords: !p.flags.has('no-numbers'),
    removeFillers: p.flags.has('remove-fillers'),
    recognition: !p.flags.has('no-recognition'),
    ...(p.values.has('threads') ? { threads: threadCount(p.values.get('threads')!) } : {}),
    // an adapted model's folder (tazamun adapt)
    ...(p.values.has('model') ? { model: resolve(p.values.get('model')!) } : {}),
  };
}

function threadCount(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error('--threads must be a whole number of at least 1');
  return n;
}
