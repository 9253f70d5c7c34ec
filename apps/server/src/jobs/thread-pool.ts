// Worker threads for alignment, kept alive between jobs so the acoustic models load once per thread.
// A thread that was terminated (cancel, time-out) or crashed is dropped and a fresh one made next time.
import { Worker } from 'node:worker_threads';
import type { AlignThreadMessage, AlignThreadRequest } from './align-protocol.ts';

const WORKER_URL = new URL('./align-thread.ts', import.meta.url).href;
// Worker threads do not inherit tsx's loader: the bootstrap registers it, then imports the module.
const BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(WORKER_URL)}); });`;

export type ThreadOutcome =
  | { type: 'result'; json: string }
  | { type: 'audio_error'; code: string; message: string }
  | { type: 'engine_error'; message: string }
  | { type: 'crash'; message: string }
  | { type: 'aborted' };

export class AlignThreadPool {
  private idle: Worker[] = [];
  private all = new Set<Worker>();

  private take(): Worker {
    const w = this.idle.pop();
    if (w) return w;
    const worker = new Worker(BOOT, { eval: true });
    this.all.add(worker);
    worker.once('exit', () => {
      this.all.delete(worker);
      this.idle = this.idle.filter((x) => x !== worker);
    });
    return worker;
  }

  run(
    req: AlignThreadRequest,
    signal: AbortSignal,
    onProgress: (m: Extract<AlignThreadMessage, { type: 'progress' }>) => void,
  ): Promise<ThreadOutcome> {
    if (signal.aborted) return Promise.resolve({ type: 'aborted' });
    const worker = this.take();
    return new Promise<ThreadOutcome>((resolve) => {
      let settled = false;
      const settle = (o: ThreadOutcome, keep: boolean): void => {
        if (settled) return;
        settled = true;
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        signal.removeEventListener('abort', onAbort);
        if (keep) this.idle.push(worker);
        // a thread that cannot be stopped cleanly is gone either way
        else worker.terminate().catch(() => undefined);
        resolve(o);
      };
      const onMessage = (m: AlignThreadMessage): void => {
        if (m.type === 'progress') onProgress(m);
        else settle(m, true);
      };
      const onError = (err: Error): void => settle({ type: 'crash', message: err.message }, false);
      const onExit = (code: number): void =>
        settle({ type: 'crash', message: `worker thread exited with code ${code}` }, false);
      const onAbort = (): void => settle({ type: 'aborted' }, false);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal.addEventListener('abort', onAbort, { once: true });
      worker.postMessage(req);
    });
  }

  async close(): Promise<void> {
    const all = [...this.all];
    this.idle = [];
    await Promise.allSettled(all.map((w) => w.terminate()));
  }
}
