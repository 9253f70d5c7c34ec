// A piece thread of align/window-pool.ts: loads the HMM decoder of the job's model once (as it starts, when
// the pool names the model: PieceWarmUp), then aligns the pieces it is given with the same code the main
// thread uses (alignPiece).
import { parentPort } from 'node:worker_threads';
import type { Recognition } from '../acoustic/backend.ts';
import { HmmBackend, loadAdaptedDecoder, loadDecoder } from '../acoustic/hmm/backend.ts';
import { Samples } from '../audio/pcm.ts';
import { describeThrown } from '../errors.ts';
import { arabicPronunciationLattice, espeakIpa } from '../text/g2p.ts';
import { alignPiece } from './long-audio.ts';
import type { PieceJob, PieceOutcome, PieceWarmUp } from './window-pool.ts';
import type { ModelFamily } from '../acoustic/hmm/models.ts';

/** The decoder of a job's model (loaded once: loadDecoder and loadAdaptedDecoder keep it). */
const decoderOf = (family: ModelFamily, modelDir: string | undefined) =>
  modelDir ? loadAdaptedDecoder(modelDir, family) : loadDecoder(family);

/** The pieces given, aligned one after another in the order they came (a reply per piece, in order). */
let turn: Promise<void> = Promise.resolve();

parentPort!.on('message', (job: PieceJob | PieceWarmUp) => {
  if ('warm' in job) {
    // no reply: a model that cannot load fails the first piece, which reports why
    decoderOf(job.family, job.modelDir).catch(() => {});
    return;
  }
  // The pool may give the next piece before this one is done, so that the thread goes on without
  // waiting for the main thread to read its reply (align/window-pool.ts).
  turn = turn.then(() => alignJob(job));
});

async function alignJob(job: PieceJob): Promise<void> {
  try {
    const backend = new HmmBackend(await decoderOf(job.family, job.modelDir), {
      espeakIpa,
      arabicLattice: arabicPronunciationLattice,
    });
    const recognitions: Recognition[] = [];
    const warnings: string[] = [];
    const samples = new Samples(job.pcm, true, job.origin);
    const spans = await alignPiece(backend, samples, job.offset, job.units, job.coarse, {
      precision: job.precision,
      garbage: job.garbage,
      warn: (m) => warnings.push(m),
      onRecognition: job.recognise ? (r) => recognitions.push(r) : undefined,
    });
    const outcome: PieceOutcome = { spans, recognitions, warnings };
    parentPort!.postMessage({ ok: true, outcome });
  } catch (err) {
    parentPort!.postMessage({ ok: false, error: describeThrown(err) });
  }
}
