// A piece thread of align/window-pool.ts: loads the HMM decoder of the job's model once (as it starts, when
// the pool names the model: PieceWarmUp), then aligns the pieces it is given with the same code the main
// thread uses (pieceOutcome).
import { parentPort, workerData } from 'node:worker_threads';
import { HmmBackend, loadAdaptedDecoder, loadDecoder } from '../acoustic/hmm/backend.ts';
import { Samples } from '../audio/pcm.ts';
import { describeThrown } from '../errors.ts';
import { arabicPronunciationLattice, espeakIpa } from '../text/g2p.ts';
import { pieceOutcome } from './long-audio.ts';
import { CLAIM, CLAIMS_KEY } from './window-pool.ts';
import type { PieceWarmUp, PostedJob, Reply } from './window-pool.ts';
import type { ModelFamily } from '../acoustic/hmm/models.ts';

/** The decoder of a job's model (loaded once: loadDecoder and loadAdaptedDecoder keep it). */
const decoderOf = (family: ModelFamily, modelDir: string | undefined) =>
  modelDir ? loadAdaptedDecoder(modelDir, family) : loadDecoder(family);

/** Each job's claim, shared with the pool: a job is aligned only if the pool has not taken it back. */
const claims = new Int32Array((workerData as Record<string, SharedArrayBuffer>)[CLAIMS_KEY]!);

/** The pieces given, aligned one after another in the order they came (a reply per piece, in order). */
let turn: Promise<void> = Promise.resolve();

const reply = (r: Reply) => parentPort!.postMessage(r);

parentPort!.on('message', (job: PostedJob | PieceWarmUp) => {
  if ('warm' in job) {
    // no reply: a model that cannot load fails the first piece, which reports why
    decoderOf(job.family, job.modelDir).catch(() => {});
    return;
  }
  // The pool may give the next piece before this one is done, so that the thread goes on without
  // waiting for the main thread to read its reply (align/window-pool.ts).
  turn = turn.then(() => alignJob(job));
});

async function alignJob(job: PostedJob): Promise<void> {
  // taken back while it waited here: the pool's thread runs it, this one says it saw it go
  if (Atomics.compareExchange(claims, job.slot, CLAIM.waiting, CLAIM.started) !== CLAIM.waiting) {
    reply({ id: job.id, ok: false, withdrawn: true });
    return;
  }
  try {
    const backend = new HmmBackend(await decoderOf(job.family, job.modelDir), {
      espeakIpa,
      arabicLattice: arabicPronunciationLattice,
    });
    const samples = new Samples(job.pcm, true, job.origin);
    const outcome = await pieceOutcome(
      backend,
      {
        samples,
        offset: job.offset,
        units: job.units,
        coarse: job.coarse,
        adaptation: job.adaptation,
        leadingLoop: job.leadingLoop,
        forced: job.forced,
      },
      { precision: job.precision, garbage: job.garbage, recognise: job.recognise },
    );
    reply({ id: job.id, ok: true, outcome });
  } catch (err) {
    reply({ id: job.id, ok: false, error: describeThrown(err) });
  }
}
