// Test support: a model folder that is the English 16 kHz model with phones of its own added (copies of
// their parents, adapt/model-dir.ts addPhones), before any re-estimation: what `tazamun adapt` writes for
// Arabic when the corpus has not moved a Gaussian yet. Optionally with a word-edge table (adapt/edges.ts).
import type { AcousticModel } from '../src/acoustic/hmm/model/acoustic-model.ts';
import { loadAcousticModel } from '../src/acoustic/hmm/model/acoustic-model.ts';
import { resolveHmmModel } from '../src/acoustic/hmm/models.ts';
import { ARABIC_PHONES } from '../src/acoustic/hmm/adapt/corpus.ts';
import type { EdgeCorrection } from '../src/acoustic/hmm/adapt/edges.ts';
import { mixtureProbabilities } from '../src/acoustic/hmm/adapt/map.ts';
import {
  addPhones,
  modelParams,
  readTransitionFile,
  writeModelDir,
} from '../src/acoustic/hmm/adapt/model-dir.ts';
import type { ModelManifest } from '../src/acoustic/hmm/adapt/model-dir.ts';
import type { ExtraPhone } from '../src/acoustic/hmm/phone-map.ts';

export interface ClonedModel {
  /** the folder's manifest as written */
  manifest: ModelManifest;
  /** the English model it was cloned from, loaded */
  model: AcousticModel;
}

/** Writes the English model with `extra` phones added (all of Arabic's by default) into folder `out`. */
export function writeClonedModel(
  out: string,
  extra: readonly ExtraPhone[] = ARABIC_PHONES,
  edges: EdgeCorrection | null = null,
): ClonedModel {
  const base = resolveHmmModel('en', 'full');
  const model = loadAcousticModel({ dir: base.hmm, featParams: base.featParams });
  const manifest = writeModelDir(
    out,
    addPhones(modelParams(model, mixtureProbabilities(model), readTransitionFile(base.hmm)), extra),
    base,
    {
      language: 'ara',
      extraPhones: [...extra],
      corpus: { recordings: 0, seconds: 0, hours: 0, frames: 0, groundTruthWords: 0 },
      iterations: [],
      moved: 0,
      gaussians: 0,
      tool: 'test',
    },
    edges,
  );
  return { manifest, model };
}
