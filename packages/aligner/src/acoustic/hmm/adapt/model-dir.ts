// An adapted model's folder: the files the decoder reads (mdef, means, variances, mixture_weights,
// transition_matrices, feat.params) in the Sphinx formats, and a small manifest (tazamun-model.json)
// naming the model it was adapted from, the language, the corpus it saw and how the adaptation went.
// The pronunciation dictionary and filler list are the base model's (the manifest names the base, which
// must be on the machine that aligns with the folder).
//
// A model adapted for a language can also gain phones its base lacks (Arabic ʕ ħ q ʔ, the emphatics,
// long vowels): each is a copy of the base phone it was standing in for (its codebook of Gaussians, its
// three states' mixture weights and its transition matrix), context-independent, and the re-estimation
// then moves it towards the frames the transcripts say are that phone.
//
// A model adapted from hand-corrected recordings also keeps what the corrections taught about word edges
// (tazamun-edges.json, edges.ts), which an alignment with the model applies. Folders written before it
// (no such file, a manifest without the later optional fields) read as before.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { EngineError } from '../../../errors.ts';
import type { AcousticModel } from '../model/acoustic-model.ts';
import { featParamsPath } from '../model/acoustic-model.ts';
import { phoneSenones, readMdef, writeTextMdef } from '../model/mdef.ts';
import type { ModelDefinition } from '../model/mdef.ts';
import { readTransitions, writeS3 } from '../model/s3file.ts';
import type { TransitionFile } from '../model/s3file.ts';
import { resolveHmmModel } from '../models.ts';
import type { HmmModelSpec, ModelFamily } from '../models.ts';
import type { ExtraPhone } from '../phone-map.ts';
import { EDGES_FILE } from './edges.ts';
import type { EdgeCorrection } from './edges.ts';

export const MANIFEST = 'tazamun-model.json';

export interface ModelManifest {
  format: 1;
  /** unique per folder written: the decoders loaded in a process are keyed by it */
  id: string;
  /** the model it was adapted from (resolveHmmModel's id) */
  base: string;
  family: ModelFamily;
  /** ISO 639-3 code of the corpus's language */
  language: string;
  extraPhones: ExtraPhone[];
  corpus: {
    recordings: number;
    seconds: number;
    hours: number;
    frames: number;
    groundTruthWords: number;
    /** phones placed by hand that the re-estimation took in their segments (absent in older folders) */
    groundTruthPhones?: number;
  };
  /** mean log-likelihood per frame (nats) of the corpus's paths, before each re-estimation */
  iterations: { logLikelihood: number; frames: number }[];
  /** Gaussians the corpus moved, of all */
  moved: number;
  gaussians: number;
  /** the regression classes of the mean transform, each with its frames (absent: none; older folders) */
  mllr?: { classes: string; transforms: { name: string; frames: number; own: boolean }[] };
  /** the word-edge correction learnt from hand-placed words (tazamun-edges.json), when there is one */
  edges?: { file: string; words: number };
  created: string;
  tool: string;
}

/** A model's parameters as the files hold them (weights as probabilities, transitions as probabilities). */
export interface ModelParams {
  mdef: ModelDefinition;
  nStreams: number;
  nDensities: number;
  streamLengths: number[];
  nCodebooks: number;
  means: Float32Array;
  variances: Float32Array;
  /** [senone][stream][density] */
  weights: Float32Array;
  tmat: TransitionFile;
}

/** The parameters of a loaded model, with its weights as probabilities and its transition file. */
export function modelParams(m: AcousticModel, weights: Float32Array, tmat: TransitionFile): ModelParams {
  return {
    mdef: m.mdef,
    nStreams: m.nStreams,
    nDensities: m.nDensities,
    streamLengths: m.streamLengths,
    nCodebooks: m.nCodebooks,
    means: m.means,
    variances: m.variances,
    weights,
    tmat,
  };
}

export function readTransitionFile(dir: string): TransitionFile {
  return readTransitions(readFileSync(join(dir, 'transition_matrices')), join(dir, 'transition_matrices'));
}

/**
 * The parameters with phones added, each cloned from its `from` phone. New CI phones come after the
 * base's, their senones after the base's CI senones (the context-dependent senones move up), their
 * codebooks and transition matrices after the base's.
 */
export function addPhones(p: ModelParams, extra: readonly ExtraPhone[]): ModelParams {
  if (extra.length === 0) return p;
  const m = p.mdef;
  const nCi = m.ciPhones.length;
  const k = extra.length;
  const ne = m.nEmitState;
  const shift = ne * k;
  const parents = extra.map((e) => {
    const ci = m.ciIndex.get(e.from);
    if (ci === undefined || m.filler[ci])
      throw new EngineError(
        'engine_fault',
        `cannot clone ${e.ipa} from ${e.from}: not a speech phone of the model`,
      );
    if (m.ciIndex.has(e.phone) || !/^[A-Za-z][A-Za-z0-9_]*$/.test(e.phone))
      throw new EngineError('engine_fault', `the new phone label ${e.phone} is taken or not plain ASCII`);
    return ci;
  });
  // The text mdef, rows rewritten: CD senones moved up past the new CI senones; the new CI rows after
  // the base's; then each new phone's triphones, copies of its parent's with senones of their own (each
  // parent senone copied once per new phone, numbered after every base senone). Before re-estimation the
  // model therefore scores exactly as its base; the corpus then moves the copies apart.
  const text = writeTextMdef(m).split('\n');
  const head: string[] = [];
  const ciRows: string[] = [];
  const triRows: string[] = [];
  const clones: string[] = [];
  /** [new senone, base senone] for the copied CD senones, in order */
  const copies: [number, number][] = [];
  let next = m.nSenones + shift;
  const copyOf = extra.map(() => new Map<number, number>());
  for (const line of text) {
    if (line === '' || line.startsWith('#') || line === '0.3' || /^\d+ n_/.test(line)) {
      if (ciRows.length === 0) head.push(line);
      continue;
    }
    const f = line.split(' ');
    for (let j = 6; j < 6 + ne; j++) {
      const s = Number(f[j]);
      if (s >= m.nCiSenones) f[j] = String(s + shift);
    }
    if (f[1] === '-') {
      ciRows.push(f.join(' '));
      continue;
    }
    triRows.push(f.join(' '));
    parents.forEach((ci, i) => {
      if (f[0] !== m.ciPhones[ci]) return;
      const g = [...f];
      g[0] = extra[i]!.phone;
      g[5] = String(m.nTmat + i);
      for (let j = 6; j < 6 + ne; j++) {
        const s = Number(f[j]);
        let c = copyOf[i]!.get(s);
        if (c === undefined) {
          c = next++;
          copyOf[i]!.set(s, c);
          copies.push([c, s - shift]);
        }
        g[j] = String(c);
      }
      clones.push(g.join(' '));
    });
  }
  extra.forEach((e, i) => {
    const states = Array.from({ length: ne }, (_, j) => m.nCiSenones + i * ne + j).join(' ');
    ciRows.push(`${e.phone} - - - n/a ${m.nTmat + i} ${states} N`);
  });
  const nTri = triRows.length + clones.length;
  const counts: Record<string, number> = {
    n_base: nCi + k,
    n_tri: nTri,
    n_state_map: (nCi + k + nTri) * (ne + 1),
    n_tied_state: next,
    n_tied_ci_state: m.nCiSenones + shift,
    n_tied_tmat: m.nTmat + k,
  };
  const out = head.map((l) => {
    const c = /^(\d+) (n_\w+)$/.exec(l);
    return c && counts[c[2]!] !== undefined ? `${counts[c[2]!]} ${c[2]}` : l;
  });
  // (concatenated, not spread: a model has over a hundred thousand triphones)
  const all = out.concat(ciRows, triRows, clones, ['']);
  const mdef = readMdef(Buffer.from(all.join('\n'), 'latin1'), 'mdef (with added phones)');
  // codebooks: the parents' copied after the base's
  const block = p.nDensities * p.streamLengths.reduce((a, b) => a + b, 0);
  const grow = (src: Float32Array) => {
    const dst = new Float32Array(src.length + k * block);
    dst.set(src);
    parents.forEach((ci, i) => dst.set(src.subarray(ci * block, (ci + 1) * block), src.length + i * block));
    return dst;
  };
  // weights: [senone][stream][density]; the new CI senones copy their parent's CI senones, the copied
  // CD senones their originals
  const per = p.nStreams * p.nDensities;
  const weights = new Float32Array(next * per);
  weights.set(p.weights.subarray(0, m.nCiSenones * per));
  parents.forEach((ci, i) => {
    const senones = phoneSenones(m, ci);
    for (let j = 0; j < ne; j++)
      weights.set(
        p.weights.subarray(senones[j]! * per, (senones[j]! + 1) * per),
        (m.nCiSenones + i * ne + j) * per,
      );
  });
  weights.set(p.weights.subarray(m.nCiSenones * per, m.nSenones * per), (m.nCiSenones + shift) * per);
  for (const [to, from] of copies) weights.set(p.weights.subarray(from * per, (from + 1) * per), to * per);
  // transition matrices: the parents' copied after the base's
  const t = p.tmat;
  const tsize = t.nFrom * t.nTo;
  const tdata = new Float32Array(t.data.length + k * tsize);
  tdata.set(t.data);
  parents.forEach((ci, i) => {
    const tm = m.phoneTmat[ci]!;
    tdata.set(t.data.subarray(tm * tsize, (tm + 1) * tsize), t.data.length + i * tsize);
  });
  return {
    ...p,
    mdef,
    nCodebooks: p.nCodebooks + k,
    means: grow(p.means),
    variances: grow(p.variances),
    weights,
    tmat: { ...t, nTmat: t.nTmat + k, data: tdata },
  };
}

/**
 * Writes a model folder: into a temporary sibling first, renamed into place at the end, so a reader never
 * meets half a model and a failed write leaves no folder.
 */
export function writeModelDir(
  dir: string,
  p: ModelParams,
  base: HmmModelSpec,
  manifest: Omit<ModelManifest, 'id' | 'format' | 'base' | 'family' | 'created' | 'edges'> & {
    created?: string;
  },
  /** the word-edge correction the model keeps (edges.ts) */
  edges: EdgeCorrection | null = null,
): ModelManifest {
  const tmp = `${dir}.writing-${randomBytes(4).toString('hex')}`;
  mkdirSync(tmp, { recursive: true });
  try {
    const gaussDims = [p.nCodebooks, p.nStreams, p.nDensities, ...p.streamLengths, p.means.length];
    writeFileSync(join(tmp, 'means'), writeS3(gaussDims, p.means));
    writeFileSync(join(tmp, 'variances'), writeS3(gaussDims, p.variances));
    writeFileSync(
      join(tmp, 'mixture_weights'),
      writeS3([p.mdef.nSenones, p.nStreams, p.nDensities, p.weights.length], p.weights),
    );
    writeFileSync(
      join(tmp, 'transition_matrices'),
      writeS3([p.tmat.nTmat, p.tmat.nFrom, p.tmat.nTo, p.tmat.data.length], p.tmat.data),
    );
    writeFileSync(join(tmp, 'mdef'), writeTextMdef(p.mdef), 'latin1');
    const fp = base.featParams && existsSync(base.featParams) ? base.featParams : featParamsPath(base.hmm);
    if (fp) copyFileSync(fp, join(tmp, basename(fp).endsWith('.json') ? 'feat_params.json' : 'feat.params'));
    if (edges) writeFileSync(join(tmp, EDGES_FILE), `${JSON.stringify(edges, null, 1)}\n`);
    const full: ModelManifest = {
      format: 1,
      id: `${base.id}+${randomBytes(6).toString('hex')}`,
      base: base.id,
      family: base.family,
      created: manifest.created ?? new Date().toISOString(),
      ...manifest,
      ...(edges ? { edges: { file: EDGES_FILE, words: edges.words } } : {}),
    };
    writeFileSync(join(tmp, MANIFEST), `${JSON.stringify(full, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
    return full;
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

export function readManifest(dir: string): ModelManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8'));
  } catch {
    throw new EngineError('model_not_installed', `${dir} is not an adapted model (no readable ${MANIFEST})`);
  }
  const m = raw as Partial<ModelManifest>;
  if (
    m.format !== 1 ||
    typeof m.id !== 'string' ||
    typeof m.base !== 'string' ||
    (m.family !== 'en' && m.family !== 'fr')
  )
    throw new EngineError(
      'model_not_installed',
      `${join(dir, MANIFEST)} is not a model manifest this version reads`,
    );
  return m as ModelManifest;
}

/**
 * The word-edge correction of a model folder, or null when it has none (adapted without hand-placed
 * words, or written before there was one). Read once per folder and manifest id.
 */
export function readEdgeCorrection(dir: string): EdgeCorrection | null {
  const manifest = readManifest(dir);
  const cached = edgeCache.get(dir);
  if (cached && cached.id === manifest.id) return cached.edges;
  let edges: EdgeCorrection | null = null;
  if (manifest.edges) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(join(dir, manifest.edges.file), 'utf8'));
    } catch {
      throw new EngineError('model_not_installed', `${dir}: its word-edge correction cannot be read`);
    }
    const e = raw as Partial<EdgeCorrection>;
    if (e.format !== 1 || typeof e.entries !== 'object' || typeof e.classes !== 'object')
      throw new EngineError(
        'model_not_installed',
        `${dir}: its word-edge correction is not one this version reads`,
      );
    edges = e as EdgeCorrection;
  }
  edgeCache.set(dir, { id: manifest.id, edges });
  return edges;
}
const edgeCache = new Map<string, { id: string; edges: EdgeCorrection | null }>();

/** The decoder's view of an adapted model folder: its files, and its base's dictionary and fillers. */
export function adaptedModelSpec(dir: string, env: NodeJS.ProcessEnv = process.env): HmmModelSpec {
  const manifest = readManifest(dir);
  const base = resolveHmmModel(manifest.family, 'full', env);
  const narrow = resolveHmmModel(manifest.family, 'narrow', env);
  const from = [base, narrow].find((s) => s.id === manifest.base);
  if (!from)
    throw new EngineError(
      'model_not_installed',
      `${dir} was adapted from ${manifest.base}, which this machine does not have (it has ${base.id})`,
    );
  return {
    id: manifest.id,
    family: manifest.family,
    extraPhones: manifest.extraPhones,
    hmm: dir,
    featParams: featParamsPath(dir) ?? from.featParams,
    dict: from.dict,
    noiseDict: from.noiseDict,
    description: `${from.description}, adapted to ${manifest.corpus.hours.toFixed(2)} h of ${manifest.language}`,
  };
}
