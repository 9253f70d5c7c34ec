// The batch runner's worker threads: one aligning thread per job slot, each keeping its models warm
// across items. A thread whose item failed with an engine fault (not the user's input) is retired and
// the item is aligned once more on a fresh thread; a second failure reports its own cause.
import { Worker } from 'node:worker_threads';
import { NATIVE_GUARD_KEY, newThreadGuard, stopThread } from '../native-guard.ts';
import type { ManifestItem } from './align.ts';

export type WorkerReply =
  | { ok: true; json: string }
  /** fault: the engine failed (retry on a fresh thread); false: the item's input caused it */
  | { ok: false; code: string; fault: boolean; error: string };

/** One worker thread with one listener of each kind for its whole life, whatever the number of items. */
export class BatchThread {
  private readonly worker: Worker;
  private pending: { resolve: (r: WorkerReply) => void } | null = null;
  private dead: string | null = null;
  /** terminated only outside onnxruntime's calls (native-guard.ts) */
  private readonly guard = newThreadGuard();

  constructor(args: string[]) {
    const workerData = { args, [NATIVE_GUARD_KEY]: this.guard.chain };
    if (import.meta.url.endsWith('.mjs')) {
      // the compiled CLI (dist/main.mjs): its worker was compiled beside it
      this.worker = new Worker(new URL('./align-worker.mjs', import.meta.url), { workerData });
    } else {
      // Workers do not inherit tsx's loader: the bootstrap registers it, then imports the worker module.
      const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(new URL('./align-worker.ts', import.meta.url).href)}); });`;
      this.worker = new Worker(boot, { eval: true, workerData });
    }
    this.worker.on('message', (r: WorkerReply) => this.settle(r));
    // A thread that throws outside an item or exits has died: what it was doing is an engine fault.
    this.worker.on('error', (err) => this.die(`the worker thread failed: ${err.message}`));
    this.worker.on('exit', (code) => this.die(`the worker thread exited with code ${code}`));
  }

  private settle(r: WorkerReply): void {
    const p = this.pending;
    this.pending = null;
    p?.resolve(r);
  }

  private die(why: string): void {
    this.dead ??= why;
    this.settle({ ok: false, code: 'engine_fault', fault: true, error: why });
  }

  align(item: ManifestItem): Promise<WorkerReply> {
    if (this.dead) return Promise.resolve({ ok: false, code: 'engine_fault', fault: true, error: this.dead });
    return new Promise((resolve) => {
      this.pending = { resolve };
      this.worker.postMessage(item);
    });
  }

  async terminate(): Promise<void> {
    this.dead ??= 'terminated';
    await stopThread(this.worker, this.guard);
  }
}

/**
 * Aligns the item on the slot's thread; after an engine fault, retires the thread, starts a fresh one
 * and aligns the item once more. Returns the reply and the thread to use for the next item.
 */
export async function alignWithRetry(
  thread: BatchThread,
  item: ManifestItem,
  fresh: () => BatchThread,
): Promise<{ reply: WorkerReply; thread: BatchThread; retried: boolean }> {
  const first = await thread.align(item);
  if (first.ok || !first.fault) return { reply: first, thread, retried: false };
  await thread.terminate();
  const next = fresh();
  const second = await next.align(item);
  if (!second.ok && second.fault) {
    // The fresh thread failed too: report its cause, and what the first attempt saw when it differs.
    const error =
      second.error === first.error ? second.error : `${second.error} (first attempt: ${first.error})`;
    await next.terminate();
    return { reply: { ...second, error }, thread: fresh(), retried: true };
  }
  return { reply: second, thread: next, retried: true };
}
