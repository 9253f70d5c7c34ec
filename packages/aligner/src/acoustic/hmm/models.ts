// Which acoustic model serves a language, and where its files are. soundswallower ships CMU's 8 kHz-band
// en-us PTM model and a French model, so English and French work with npm packages alone. Debian's
// pocketsphinx-en-us has CMU's full-band 16 kHz en-us model in the same format, an optional upgrade that
// soundswallower loads once it has a feat_params.json. That file is generated into a cache directory from
// the model's own feat.params so no model file is ever written into the repository.
//
// TAZAMUN_SYSTEM_MODELS=off hides the system (Debian) model, as on a machine without the package: the
// tests of the npm-only path run with it on machines that have the package.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ExtraPhone } from './phone-map.ts';

export type ModelFamily = 'en' | 'fr';

export interface HmmModelSpec {
  id: string;
  family: ModelFamily;
  /** phones an adapted model added to its family's (adapt/model-dir.ts), with the IPA they stand for */
  extraPhones?: ExtraPhone[];
  /** Folder with mdef, means, variances, sendump, transition_matrices. */
  hmm: string;
  featParams: string;
  dict: string;
  noiseDict: string | null;
  description: string;
}

const require = createRequire(import.meta.url);
const SS_MODELS = join(dirname(require.resolve('soundswallower')), 'model');
const DEBIAN_EN_US = '/usr/share/pocketsphinx/model/en-us';

/** Where the optional 16 kHz English model is looked for ($TAZAMUN_EN_US_16K, else Debian's path). */
export function systemEnglishDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TAZAMUN_EN_US_16K || DEBIAN_EN_US;
}

/** False when TAZAMUN_SYSTEM_MODELS is off/0/false/no: only the models npm installed are used. */
export function systemModelsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !/^(off|0|false|no)$/i.test(env.TAZAMUN_SYSTEM_MODELS ?? '');
}

function cacheDir(): string {
  const base = process.env.TAZAMUN_CACHE ?? process.env.XDG_CACHE_HOME ?? join(tmpdir());
  const dir = join(base, 'tazamun-models');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Converts a Sphinx feat.params file ("-key value" lines) into soundswallower's JSON form. */
export function featParamsToJson(text: string): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  const keep = new Set([
    'lowerf',
    'upperf',
    'nfilt',
    'transform',
    'lifter',
    'feat',
    'svspec',
    'cmn',
    'varnorm',
    'cmninit',
  ]);
  for (const line of text.split('\n')) {
    const m = /^-(\S+)\s+(\S+)/.exec(line.trim());
    if (!m || !keep.has(m[1]!)) continue;
    const [, key, raw] = m as unknown as [string, string, string];
    if (raw === 'yes' || raw === 'no') out[key] = raw === 'yes';
    else if (/^-?\d+(\.\d+)?$/.test(raw)) out[key] = Number(raw);
    else out[key] = raw;
  }
  // Whole-utterance alignment: the mean over the utterance is the right cepstral normalisation.
  out.cmn = 'batch';
  return out;
}

export function hasFullBandEnglish(env: NodeJS.ProcessEnv = process.env): boolean {
  if (!systemModelsEnabled(env)) return false;
  const dir = systemEnglishDir(env);
  return existsSync(join(dir, 'en-us', 'mdef')) && existsSync(join(dir, 'en-us', 'feat.params'));
}

export function resolveHmmModel(
  family: ModelFamily,
  preferBand: 'full' | 'narrow' = 'full',
  env: NodeJS.ProcessEnv = process.env,
): HmmModelSpec {
  if (family === 'fr') {
    const dir = join(SS_MODELS, 'fr-fr');
    return {
      id: 'cmusphinx-fr-ptm',
      family,
      hmm: dir,
      featParams: join(dir, 'feat_params.json'),
      dict: join(dir, 'dict.txt'),
      noiseDict: existsSync(join(dir, 'noisedict.txt')) ? join(dir, 'noisedict.txt') : null,
      description: 'CMU Sphinx French PTM model (shipped with soundswallower)',
    };
  }
  const narrow = join(SS_MODELS, 'en-us');
  if (preferBand === 'full' && hasFullBandEnglish(env)) {
    const system = systemEnglishDir(env);
    const hmm = join(system, 'en-us');
    const fp = join(cacheDir(), 'en-us-16k-feat_params.json');
    const json = JSON.stringify(featParamsToJson(readFileSync(join(hmm, 'feat.params'), 'utf8')));
    if (!existsSync(fp) || readFileSync(fp, 'utf8') !== json) writeFileSync(fp, json);
    return {
      id: 'cmusphinx-en-us-ptm-16k',
      family,
      hmm,
      featParams: fp,
      dict: join(system, 'cmudict-en-us.dict'),
      // The Debian model's noisedict has silence only; the npm one adds noise and speech fillers.
      noiseDict: join(narrow, 'noisedict.txt'),
      description: "CMU Sphinx en-us PTM model, 16 kHz full band (Debian's pocketsphinx-en-us)",
    };
  }
  return {
    id: 'cmusphinx-en-us-ptm-8k',
    family,
    hmm: narrow,
    featParams: join(narrow, 'feat_params.json'),
    dict: join(narrow, 'dict.txt'),
    noiseDict: join(narrow, 'noisedict.txt'),
    description: 'CMU Sphinx en-us PTM model, 8 kHz band (shipped with soundswallower)',
  };
}
