// Worker threads that align pieces of one long recording while the main thread runs the first pass
// (align/long-audio.ts): each thread loads its own decoder once, takes a piece's samples (transferred, not
// copied) and its words, and returns the piece's spans and recognition. The pieces are independent closed
// searches over disjoint stretches of audio and text, so the file's result is the same whatever thread
// aligned which piece. A piece a thread holds and has not started can be taken back (takeBack), for the
// main thread to align when it has nothing else to do, rather than wait while the thread ends the one it
// is in.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Precision, SpeakerAdaptation, Unit, UnitSpan } from '../acoustic/backend.ts';
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
  /** the speaker adaptation the first pass gave the piece (plain data) */
  adaptation?: SpeakerAdaptation;
  precision: Precision;
  garbage: boolean;
  recognise: boolean;
  /** a loop before the first unit (SearchShape) */
  leadingLoop?: true;
  /** every unit forced in (SearchShape) */
  forced?: true;
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

/** a piece's job as posted: the job, its number on its thread and its place in the thread's claims */
export type PostedJob = PieceJob & { id: number; slot: number };

/** a job's answer: its outcome, or why it failed */
export type Answer =
  | { ok: true; outcome: PieceOutcome }
  /** `cause`: the error itself, when the job failed on this thread (taken back) */
  | { ok: false; error: string; cause?: unknown };

/** what a thread says of a job: its answer, or that it was taken back before it started (takeBack) */
export type Reply = { id: number } & (Answer | { ok: false; withdrawn: true });

/**
 * A piece's claim, in memory the pool and its thread share: a job given waits until the thread starts it
 * or the pool takes it back, whichever comes first (one compare-and-swap each, so never both).
 */
export const CLAIM = { free: 0, waiting: 1, started: 2, withdrawn: 3 } as const;
/** claims per thread: more than the pieces it can hold, counting the ones taken back not yet acknowledged */
const CLAIM_SLOTS = 16;
/** the key of a thread's claims in its workerData */
export const CLAIMS_KEY = 'tazamunPieceClaims';

/** Threads worth starting for one recording: as asked, at most the machine's cores. */
export function pieceThreads(asked: number | undefined): number {
  return Math.max(1, Math.min(asked ?? 1, availableParallelism()));
}

/**
 * Pieces a thread holds at once: the one it aligns and the next ones, waiting in its inbox. A thread that
 * ends a piece starts the next at once, instead of waiting until the main thread, inside a search of its
 * own (seconds without a turn of its event loop), reads the reply and hands it another: with one piece at
 * a time the second thread spent about a quarter of its time waiting so (2026-12-04, a 3-hour file). More
 * than two cost nothing at the end, where the main thread takes back what a thread holds and has not
 * started (takeBack) instead of waiting for it: 0.92x the wall of two on the 0.27 h stand-in (2026-12-06).
 * Four lasted about 0.8 s, and a piece on the main thread may take 1.5 s: on the 3-hour file the other
 * thread waited 3.7 s so, in four gaps (2026-12-07); with eight, 133.0 and 133.7 s of wall against 136.5
 * and 136.0.
 */
export const PIECES_HELD = 8;

/** A job given to a thread and not answered: its reply's resolver, and the job itself (to take it back). */
interface Given {
  job: PieceJob;
  slot: number;
  resolve: (r: Answer) => void;
}

/** A job taken back from a thread before it started it: whoever took it runs it, then settles it. */
export interface TakenBack {
  job: PieceJob;
  settle: (r: Answer) => void;
}

class PieceThread {
  private readonly worker: Worker;
  /** the jobs given and not answered, by number, in the order given (the thread aligns them in turn) */
  private readonly pending = new Map<number, Given>();
  /** each slot's job, from when it is given until the thread answers it (or acknowledges it taken back) */
  private readonly claims = new Int32Array(new SharedArrayBuffer(4 * CLAIM_SLOTS));
  private readonly slotOf = new Map<number, number>();
  private nextId = 0;
  /** terminated only outside onnxruntime's calls (native-guard.ts) */
  private readonly guard = newThreadGuard();
  /** why the thread is gone (it failed or exited): it takes no more pieces */
  private gone: string | undefined;

  /** `onGone`: told once, when the thread fails or exits; `onRoom`: told when a place comes free */
  constructor(
    warm?: PieceWarmUp,
    private readonly onGone?: () => void,
    private readonly onRoom?: () => void,
  ) {
    const workerData = { [NATIVE_GUARD_KEY]: this.guard.chain, [CLAIMS_KEY]: this.claims.buffer };
    if (import.meta.url.endsWith('.mjs')) {
      // a compiled bundle (the CLI's or the server's): the worker was compiled beside it
      this.worker = new Worker(new URL('./window-worker.mjs', import.meta.url), { workerData });
    } else {
      // Workers do not inherit tsx's loader: the bootstrap registers it, then imports the worker module.
      const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(new URL('./window-worker.ts', import.meta.url).href)}); });`;
      this.worker = new Worker(boot, { eval: true, workerData });
    }
    this.worker.on('message', (r: Reply) => this.answered(r));
    // a thread that fails or exits fails every piece it holds
    this.worker.on('error', (err) => this.fail(`a piece thread failed: ${err.message}`));
    this.worker.on('exit', (code) => this.fail(`a piece thread exited with code ${code}`));
    if (warm) this.worker.postMessage(warm);
  }

  private answered(r: Reply): void {
    // the slot is free again once the thread has said its last word on the job
    const slot = this.slotOf.get(r.id);
    if (slot !== undefined) {
      this.slotOf.delete(r.id);
      Atomics.store(this.claims, slot, CLAIM.free);
    }
    const given = this.pending.get(r.id);
    // a job taken back: its reply is the thread's acknowledgement (its claim may have been the last free)
    if (!given || 'withdrawn' in r) return this.onRoom?.();
    this.pending.delete(r.id);
    given.resolve(r);
  }

  private fail(error: string): void {
    const first = this.gone === undefined;
    this.gone ??= error;
    const given = [...this.pending.values()];
    this.pending.clear();
    for (const g of given) g.resolve({ ok: false, error });
    if (first) this.onGone?.();
  }

  /** why the thread is gone, if it is */
  get failure(): string | undefined {
    return this.gone;
  }

  /** pieces given and not answered yet */
  get held(): number {
    return this.pending.size;
  }

  /**
   * Pieces the thread can take now: up to PIECES_HELD held, and as many as it has free claims (a claim
   * stays taken until the thread acknowledges a job taken back, which it does only when it reaches it).
   */
  get room(): number {
    return Math.max(0, Math.min(PIECES_HELD - this.pending.size, CLAIM_SLOTS - this.slotOf.size));
  }

  run(job: PieceJob): Promise<Answer> {
    return new Promise((resolve) => {
      // a piece posted to a thread that is gone would never be answered
      if (this.gone !== undefined) return resolve({ ok: false, error: this.gone });
      // (never without one: the pool gives a thread pieces only while it has room)
      const slot = this.freeSlot();
      if (slot < 0) return resolve({ ok: false, error: 'a piece thread has no free claim' });
      const id = this.nextId++;
      this.pending.set(id, { job, slot, resolve });
      this.slotOf.set(id, slot);
      Atomics.store(this.claims, slot, CLAIM.waiting);
      const posted: PostedJob = { ...job, id, slot };
      this.worker.postMessage(posted, [job.pcm.buffer as ArrayBuffer]);
    });
  }

  private freeSlot(): number {
    const used = new Set(this.slotOf.values());
    for (let i = 0; i < CLAIM_SLOTS; i++) if (!used.has(i)) return i;
    return -1;
  }

  /**
   * Takes back the last job given that the thread has not started (its samples went with it: the caller
   * runs the job from its own copy); null when the thread has started every job it holds.
   */
  takeBack(): TakenBack | null {
    if (this.gone !== undefined) return null;
    for (const [id, given] of [...this.pending].reverse()) {
      if (Atomics.compareExchange(this.claims, given.slot, CLAIM.waiting, CLAIM.withdrawn) !== CLAIM.waiting)
        continue;
      // the slot stays taken until the thread, reaching the job, acknowledges it
      this.pending.delete(id);
      return { job: given.job, settle: given.resolve };
    }
    return null;
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
    this.threads = Array.from(
      { length: size },
      () =>
        new PieceThread(
          w,
          () => this.wakeAll(),
          () => this.waiting.shift()?.(),
        ),
    );
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
    return this.live.reduce((a, t) => a + t.room, 0);
  }

  async run(job: PieceJob): Promise<PieceOutcome> {
    // the running thread holding the fewest pieces (an idle one first); else wait until one answers;
    // refused at once when every thread is gone (it would wait for ever)
    const pick = (): PieceThread | undefined => {
      let best: PieceThread | undefined;
      for (const t of this.live) if (t.room > 0 && (!best || t.held < best.held)) best = t;
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
      if (!reply.ok) throw reply.cause ?? new Error(reply.error);
      return reply.outcome;
    } finally {
      this.waiting.shift()?.();
    }
  }

  /**
   * A job a thread holds and has not started, taken back for the caller to run (this thread has nothing
   * else to do, while the thread would come to the job only after the one it is in): from the thread that
   * holds the most. The caller settles it, and the promise run() gave for it settles so.
   */
  takeBack(): TakenBack | null {
    for (const t of [...this.live].sort((a, b) => b.held - a.held)) {
      const taken = t.takeBack();
      if (!taken) continue;
      // its place on the thread is free: a piece waiting for one takes it
      this.waiting.shift()?.();
      return taken;
    }
    return null;
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.terminate()));
  }
}
