// Public entry `@tazamun/aligner/adapt`: what a caller of model adaptation needs besides the host's
// `adapt` task (host/protocol.ts): how much speech a corpus must give, and an adapted model's folder
// (its manifest, read back).
import { MIN_CORPUS_FRAMES } from '../acoustic/hmm/adapt/corpus.ts';
import { FRAME_RATE } from '../acoustic/hmm/decoder.ts';

export { MANIFEST, readManifest } from '../acoustic/hmm/adapt/model-dir.ts';
export type { ModelManifest } from '../acoustic/hmm/adapt/model-dir.ts';

/** Seconds of aligned speech a corpus must give before adaptation runs (corpus.ts MIN_CORPUS_FRAMES). */
export const MIN_CORPUS_SECONDS = MIN_CORPUS_FRAMES / FRAME_RATE;
