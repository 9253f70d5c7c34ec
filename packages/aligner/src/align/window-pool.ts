// Worker threads that align pieces of one long recording while the main thread runs the first pass
// (align/long-audio.ts): each thread loads its own decoder once, takes a piece's samples (transferred, not
// copied) and its words, and returns the piece's spans and recognition. The pieces are independent closed
// searches over disjoint stretches of audio and text, so the file's result is the same whatever thread
// aligned which piece.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Precision, Unit, UnitSpan } from '../acoustic/backend.ts';
import type { PieceOutcome } from './long-audio.ts';
import type { ModelFamily } from '../acoustic/hmm/models.ts';
import { NATIVE_GUARD_KEY, newThreadGuard, stopThread } from '../native-guard.ts';

export interface PieceJob {
  family: ModelFamily;
  /** an adapted model's folder, when the job aligns with one (else the family's own model) */
  modelDir?: string;
  /** the piece's samples as the recording keeps them (16-bit or float), transferred */
  pcm: Int16Array | Float32Array;
  /** where they start in the recording (samples): the dither of digital silence follows the file */
  origin: number;
  /** seconds of the piece's start in the file */
  offset: number;
  units: Unit[];
  /** the first pass's spans of these units (absolute times), kept when the closed search does worse */
  coarse: UnitSpan[];
  precision: Precision;
  garbage: boolean;
  recognise: boolean;
}

/**
 * The model a pool's threads load as soon as they start, while the first pass runs on the main thread, so
 * that the first piece does not wait for it (a failure is the first piece's to report).
 */
export interface PieceWarmUp {
  warm: true;
  family: ModelFamily;
  modelDir?: string;
}

/** spans with unit indices into the piece's units and absolute times, its recognition, its warnings */
export type { PieceOutcome } from './long-audio.ts';

type Reply = { ok: true; outcome: PieceOutcome } | { ok: false; error: string };

/** Threads worth starting for one recording: as asked, at most the machine's cores. */
export function pieceThreads(asked: number | undefined): number {
  return Math.max(1, Math.min(asked ?? 1, availableParallelism()));
}

class PieceThread {
  private readonly worker: Worker;
  private pending: ((r: Reply) => void) | null = null;
  /** terminated only outside onnxruntime's calls (native-guard.ts) */
  private readonly guard = newThreadGuard();

  constructor(warm?: PieceWarmUp) {
    const workerData = { [NATIVE_GUARD_KEY]: this.guard.chain };
    if (import.meta.url.endsWith('.mjs')) {
      // a compiled bundle (the CLI's or the server's): the worker was compiled beside it
      this.worker = new Worker(new URL('./window-worker.mjs', import.meta.url), { workerData });
    } else {
      // Workers do not inherit tsx's loader: the bootstrap registers it, then imports the worker module.
      const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(new URL('./window-worker.ts', import.meta.url).href)}); });`;
      this.worker = new Worker(boot, { eval: true, workerData });
    }
    this.worker.on('message', (r: Reply) => this.settle(r));
    this.worker.on('error', (err) =>
      this.settle({ ok: false, error: `a piece thread failed: ${err.message}` }),
    );
    this.worker.on('exit', (code) =>
      this.settle({ ok: false, error: `a piece thread exited with code ${code}` }),
    );
    if (warm) this.worker.postMessage(warm);
  }

  private settle(r: Reply): void {
    const p = this.pending;
    this.pending = null;
    p?.(r);
  }

  run(job: PieceJob): Promise<Reply> {
    return new Promise((resolve) => {
      this.pending = resolve;
      this.worker.postMessage(job, [job.pcm.buffer as ArrayBuffer]);
    });
  }

  terminate(): Promise<number> {
    return stopThread(this.worker, this.guard);
  }
}

export class WindowPool {
  private readonly threads: PieceThread[];
  private readonly idle: PieceThread[];
  private readonly waiting: ((t: PieceThread) => void)[] = [];

  /** `warm`: the model the threads load at once (else each loads it with its first piece) */
  constructor(size: number, warm?: Omit<PieceWarmUp, 'warm'>) {
    const w: PieceWarmUp | undefined = warm && { warm: true, ...warm };
    this.threads = Array.from({ length: size }, () => new PieceThread(w));
    this.idle = [...this.threads];
  }

  get size(): number {
    return this.threads.length;
  }

  /** Threads free now. */
  get free(): number {
    return this.idle.length;
  }

  async run(job: PieceJob): Promise<PieceOutcome> {
    const thread = this.idle.pop() ?? (await new Promise<PieceThread>((r) => this.waiting.push(r)));
    try {
      const reply = await thread.run(job);
      if (!reply.ok) throw new Error(reply.error);
      return reply.outcome;
    } finally {
      const next = this.waiting.shift();
      if (next) next(thread);
      else this.idle.push(thread);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.terminate()));
  }
}
