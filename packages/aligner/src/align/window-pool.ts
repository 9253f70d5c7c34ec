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

/**
 * Pieces a thread holds at once: the one it aligns and the next, waiting in its inbox. A thread that ends
 * a piece starts the next at once, instead of waiting until the main thread, inside a search of its own
 * (seconds without a turn of its event loop), reads the reply and hands it another: with one piece at a
 * time the second thread spent about a quarter of its time waiting so (2026-12-04, a 3-hour file).
 */
export const PIECES_HELD = 2;

class PieceThread {
  private readonly worker: Worker;
  /** the replies awaited, in the order the pieces were given (the thread aligns them in turn) */
  private readonly pending: ((r: Reply) => void)[] = [];
  /** terminated only outside onnxruntime's calls (native-guard.ts) */
  private readonly guard = newThreadGuard();
  /** why the thread is gone (it failed or exited): it takes no more pieces */
  private gone: string | undefined;

  /** `onGone`: told once, when the thread fails or exits */
  constructor(
    warm?: PieceWarmUp,
    private readonly onGone?: () => void,
  ) {
    const workerData = { [NATIVE_GUARD_KEY]: this.guard.chain };
    if (import.meta.url.endsWith('.mjs')) {
      // a compiled bundle (the CLI's or the server's): the worker was compiled beside it
      this.worker = new Worker(new URL('./window-worker.mjs', import.meta.url), { workerData });
    } else {
      // Workers do not inherit tsx's loader: the bootstrap registers it, then imports the worker module.
      const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(new URL('./window-worker.ts', import.meta.url).href)}); });`;
      this.worker = new Worker(boot, { eval: true, workerData });
    }
    this.worker.on('message', (r: Reply) => this.pending.shift()?.(r));
    // a thread that fails or exits fails every piece it holds
    this.worker.on('error', (err) => this.fail(`a piece thread failed: ${err.message}`));
    this.worker.on('exit', (code) => this.fail(`a piece thread exited with code ${code}`));
    if (warm) this.worker.postMessage(warm);
  }

  private fail(error: string): void {
    const first = this.gone === undefined;
    this.gone ??= error;
    for (const p of this.pending.splice(0)) p({ ok: false, error });
    if (first) this.onGone?.();
  }

  /** why the thread is gone, if it is */
  get failure(): string | undefined {
    return this.gone;
  }

  /** pieces given and not answered yet */
  get held(): number {
    return this.pending.length;
  }

  run(job: PieceJob): Promise<Reply> {
    return new Promise((resolve) => {
      // a piece posted to a thread that is gone would never be answered
      if (this.gone !== undefined) return resolve({ ok: false, error: this.gone });
      this.pending.push(resolve);
      this.worker.postMessage(job, [job.pcm.buffer as ArrayBuffer]);
    });
  }

  terminate(): Promise<number> {
    return stopThread(this.worker, this.guard);
  }
}

export class WindowPool {
  private readonly threads: PieceThread[];
  private readonly waiting: (() => void)[] = [];

  /** `warm`: the model the threads load at once (else each loads it with its first piece) */
  constructor(size: number, warm?: Omit<PieceWarmUp, 'warm'>) {
    const w: PieceWarmUp | undefined = warm && { warm: true, ...warm };
    // a thread that is gone wakes the pieces waiting for a place: they go to another or are refused
    this.threads = Array.from({ length: size }, () => new PieceThread(w, () => this.wakeAll()));
  }

  private wakeAll(): void {
    for (const w of this.waiting.splice(0)) w();
  }

  /** the threads still running (one that failed or exited takes no more pieces) */
  private get live(): PieceThread[] {
    return this.threads.filter((t) => t.failure === undefined);
  }

  get size(): number {
    return this.threads.length;
  }

  /** Pieces the threads can take now (each running one holds up to PIECES_HELD). */
  get free(): number {
    return this.live.reduce((a, t) => a + Math.max(0, PIECES_HELD - t.held), 0);
  }

  async run(job: PieceJob): Promise<PieceOutcome> {
    // the running thread holding the fewest pieces (an idle one first); else wait until one answers;
    // refused at once when every thread is gone (it would wait for ever)
    const pick = (): PieceThread | undefined => {
      let best: PieceThread | undefined;
      for (const t of this.live) if (t.held < PIECES_HELD && (!best || t.held < best.held)) best = t;
      if (!best && !this.live.length) throw new Error(this.threads[0]?.failure ?? 'no piece threads');
      return best;
    };
    let thread = pick();
    while (!thread) {
      await new Promise<void>((r) => this.waiting.push(r));
      thread = pick();
    }
    try {
      const reply = await thread.run(job);
      if (!reply.ok) throw new Error(reply.error);
      return reply.outcome;
    } finally {
      this.waiting.shift()?.();
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.terminate()));
  }
}
