// Models that are too large for npm and are pulled once from the Hugging Face hub (`tazamun models pull`),
// where they live on disk, and which engines are therefore available.
//
// Directory: $TAZAMUN_MODELS_DIR, else $XDG_CACHE_HOME/tazamun/models, else ~/.cache/tazamun/models.
// A user cache rather than <repo>/data: weights are not project data, survive a fresh checkout and are
// shared by every checkout and worker of one user; a server deployment sets TAZAMUN_MODELS_DIR to a
// volume its workers share. Each model gets a folder with the hub repository's own file layout plus a
// `tazamun-manifest.json` written only after every file has been downloaded and verified.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { hasFullBandEnglish, systemEnglishDir, systemModelsEnabled } from '../acoustic/hmm/models.ts';

export type ModelId = 'mms';
export type Variant = 'quantized' | 'fp32';

export interface ModelFile {
  path: string;
  /** only for this variant of the model (the weights); other files are shared */
  variant?: Variant;
  /** a missing optional file (404 on the hub) does not fail the pull */
  optional?: boolean;
  /** sha256 pinned here; when absent the hub's X-Linked-Etag (LFS) or git blob ETag is checked */
  sha256?: string;
}

export interface ModelSpec {
  id: ModelId;
  repo: string;
  revision: string;
  description: string;
  licence: string;
  defaultVariant: Variant;
  files: ModelFile[];
}

export const MODELS: Readonly<Record<ModelId, ModelSpec>> = {
  mms: {
    id: 'mms',
    repo: 'onnx-community/mms-300m-1130-forced-aligner-ONNX',
    revision: 'main',
    description:
      'MMS forced aligner (wav2vec2 300M, CTC over romanised letters, 1,130 languages), ONNX export',
    licence: 'CC-BY-NC-4.0 (Meta MMS weights)',
    defaultVariant: 'quantized',
    files: [
      { path: 'config.json' },
      { path: 'preprocessor_config.json', optional: true },
      { path: 'vocab.json' },
      { path: 'tokenizer_config.json', optional: true },
      { path: 'special_tokens_map.json', optional: true },
      { path: 'onnx/model_quantized.onnx', variant: 'quantized' },
      { path: 'onnx/model.onnx', variant: 'fp32' },
    ],
  },
};

export function modelsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TAZAMUN_MODELS_DIR) return env.TAZAMUN_MODELS_DIR;
  const cache = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'tazamun', 'models');
}

export function hubEndpoint(env: NodeJS.ProcessEnv = process.env): string {
  return (env.TAZAMUN_HF_ENDPOINT || env.HF_ENDPOINT || 'https://huggingface.co').replace(/\/+$/, '');
}

export const MANIFEST = 'tazamun-manifest.json';

export interface Manifest {
  id: ModelId;
  repo: string;
  revision: string;
  variant: Variant;
  endpoint: string;
  pulledAt: string;
  files: { path: string; size: number; sha256: string }[];
}

export interface InstalledModel {
  id: ModelId;
  dir: string;
  variant: Variant;
  /** the ONNX file to load */
  modelPath: string;
  manifest: Manifest | null;
  size: number;
}

/** The installed copy of a model, or null. Files copied in by hand (no manifest) count if the weights are there. */
export function findInstalled(id: ModelId, env: NodeJS.ProcessEnv = process.env): InstalledModel | null {
  const spec = MODELS[id];
  const dir = join(modelsDir(env), id);
  let manifest: Manifest | null = null;
  if (existsSync(join(dir, MANIFEST))) {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as Manifest;
  }
  const variants: Variant[] = manifest ? [manifest.variant] : [spec.defaultVariant, 'quantized', 'fp32'];
  for (const variant of variants) {
    const weights = spec.files.find((f) => f.variant === variant);
    if (weights && existsSync(join(dir, weights.path))) {
      const size = manifest ? manifest.files.reduce((a, f) => a + f.size, 0) : 0;
      return { id, dir, variant, modelPath: join(dir, weights.path), manifest, size };
    }
  }
  return null;
}

export interface EngineAvailability {
  id: 'hmm' | 'mms';
  available: boolean;
  detail: string;
}

/**
 * The hmm engine's English model: the npm 8 kHz-band model always, Debian's 16 kHz model as an optional
 * upgrade (pocketsphinx-en-us), named so `tazamun models list` shows which one results will come from.
 */
function hmmDetail(env: NodeJS.ProcessEnv): string {
  const base =
    'pocketsphinx models from npm: French (cmusphinx-fr-ptm), English 8 kHz band (cmusphinx-en-us-ptm-8k)';
  if (hasFullBandEnglish(env))
    return `${base}; English uses cmusphinx-en-us-ptm-16k (Debian pocketsphinx-en-us, ${systemEnglishDir(env)})`;
  if (!systemModelsEnabled(env))
    return `${base}; English uses the 8 kHz model (system models off: TAZAMUN_SYSTEM_MODELS=${env.TAZAMUN_SYSTEM_MODELS})`;
  return `${base}; English uses the 8 kHz model (optional upgrade: install Debian's pocketsphinx-en-us for the 16 kHz model)`;
}

/** Engines this installation can run: hmm always (its models ship with npm), mms once pulled. */
export function availableEngines(env: NodeJS.ProcessEnv = process.env): EngineAvailability[] {
  const mms = findInstalled('mms', env);
  return [
    { id: 'hmm', available: true, detail: hmmDetail(env) },
    {
      id: 'mms',
      available: mms !== null,
      detail: mms
        ? `${MODELS.mms.repo} (${mms.variant}) in ${mms.dir}`
        : `not installed: run \`tazamun models pull mms\` (into ${join(modelsDir(env), 'mms')})`,
    },
  ];
}

/** Languages the hmm back-end has a native acoustic model for (others go through IPA mapping). */
export const HMM_NATIVE_LANGUAGES: ReadonlySet<string> = new Set(['eng', 'fra']);

/**
 * `--engine auto`: the offline hmm model where it is native (English, French), MMS for every other
 * language when it is installed, else hmm with its cross-lingual phone mapping. The reason is meant for
 * the result's warnings so the choice is visible; the result's engine.backend records it too.
 */
export function chooseEngine(
  requested: 'auto' | 'hmm' | 'mms',
  lang3: string,
  env: NodeJS.ProcessEnv = process.env,
): { engine: 'hmm' | 'mms'; reason: string } {
  if (requested !== 'auto') return { engine: requested, reason: `engine ${requested} was requested` };
  if (HMM_NATIVE_LANGUAGES.has(lang3))
    return { engine: 'hmm', reason: `auto: hmm has a native ${lang3} model` };
  if (findInstalled('mms', env))
    return { engine: 'mms', reason: `auto: mms for ${lang3} (no native hmm model)` };
  return { engine: 'hmm', reason: `auto: hmm (cross-lingual) for ${lang3}; mms is not installed` };
}
