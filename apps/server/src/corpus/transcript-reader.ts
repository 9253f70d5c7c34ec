// The transcripts of batch uploads are read on a worker thread of their own (transcript-thread.ts), one
// at a time: a TextGrid that claims a billion intervals, or a text built to be slow, costs that thread
// and never the event loop, so /api/health/ and every other request go on being answered (issue 27).
// Each transcript has a time budget: past it, or when the thread dies (its heap is capped), the thread
// is terminated, the transcript refused, and the next one gets a fresh thread.
import type { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { isTextGridPath } from '@tazamun/aligner/corpus';
import { startThread } from '@tazamun/aligner/host';
import type { TranscriptOutcome } from './transcript-text.ts';

// the thread's source, and its bundle beside the server's (apps/server/scripts/build-server.mjs)
const THREAD_SOURCE = new URL('./transcript-thread.ts', import.meta.url);

export interface TranscriptRequest {
  id: number;
  name: string;
  bytes: Uint8Array;
}

export interface TranscriptReply {
  id: number;
  outcome: TranscriptOutcome;
}

/** One transcript's time on the thread. A 5 MB TextGrid takes well under a second; only a fault gets near. */
export const TRANSCRIPT_BUDGET_MS = 30_000;
/** The thread's heap: a 5 MB transcript and its labels need a fraction of it. */
const THREAD_HEAP_MB = 256;

export class TranscriptReader {
  private worker: Promise<Worker> | null = null;
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly budgetMs = TRANSCRIPT_BUDGET_MS,
  ) {}

  /** The transcript's text, or the catalogue code refusing it. Requests are served in order. */
  read(name: string, bytes: Uint8Array): Promise<TranscriptOutcome> {
    const next = this.queue.then(() => this.readNow(name, bytes));
    this.queue = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = null;
    if (w) await (await w).terminate();
  }

  private async readNow(name: string, bytes: Uint8Array): Promise<TranscriptOutcome> {
    if (this.closed) throw new Error('the transcript reader is closed');
    const worker = await (this.worker ??= this.start());
    const id = this.nextId++;
    const refused: TranscriptOutcome = {
      code: isTextGridPath(name) ? 'textgrid_malformed' : 'text_encoding_invalid',
    };
    return new Promise<TranscriptOutcome>((resolve) => {
      const finish = (outcome: TranscriptOutcome) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        resolve(outcome);
      };
      const onMessage = (m: TranscriptReply) => {
        if (m.id === id) finish(m.outcome);
      };
      const onExit = () => {
        this.log.warn({ file: name, bytes: bytes.length }, 'transcript thread died reading a transcript');
        finish(refused);
      };
      const timer = setTimeout(() => {
        this.log.warn(
          { file: name, bytes: bytes.length, budget_ms: this.budgetMs },
          'transcript over its time budget: thread terminated',
        );
        this.retire(worker);
        finish(refused);
      }, this.budgetMs);
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      worker.postMessage({ id, name, bytes } satisfies TranscriptRequest);
    });
  }

  /** Forgotten at once (the next read starts another thread), then terminated. */
  private retire(worker: Worker): void {
    this.worker = null;
    void worker.terminate();
  }

  /** A thread, ready once its module has loaded (the budget counts from there, not from tsx's start-up). */
  private start(): Promise<Worker> {
    const worker = startThread(THREAD_SOURCE, 'transcript-thread', {
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    });
    worker.unref();
    const ready = new Promise<Worker>((resolve, reject) => {
      const onReady = (m: { ready?: boolean }) => {
        if (!m.ready) return;
        worker.off('message', onReady);
        resolve(worker);
      };
      worker.on('message', onReady);
      worker.once('exit', (code) =>
        reject(new Error(`the transcript thread exited (${code}) while loading`)),
      );
    });
    worker.on('error', (err) => this.log.warn({ err }, 'transcript thread failed'));
    worker.once('exit', () => {
      if (this.worker === ready) this.worker = null;
    });
    // a thread that failed to load is forgotten, so the next read starts another
    ready.catch(() => undefined);
    return ready;
  }
}
