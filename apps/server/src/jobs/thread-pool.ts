// Worker threads for alignment, kept alive between jobs so the acoustic models load once per thread.
// A thread is kept only after a job that ended cleanly (a result, or an error in the user's input). A
// thread that was terminated (cancel, time-out), crashed, or whose engine failed is retired: an engine
// fault can leave the WASM decoder's memory broken, and a broken thread kept idle received every next
// job (issue 11). The next job gets a fresh thread.
import { Worker } from 'node:worker_threads';
import { NATIVE_GUARD_KEY, newThreadGuard, stopThread } from '@tazamun/aligner/native-guard';
import type { ThreadGuard } from '@tazamun/aligner/native-guard';
import type { AlignThreadData, AlignThreadMessage, AlignThreadRequest } from './align-protocol.ts';

// Compiled (apps/server/scripts/build-server.mjs), the thread is the bundle beside this one; from the
// sources, worker threads do not inherit tsx's loader: the bootstrap registers it, then imports the module.
const COMPILED = import.meta.url.endsWith('.mjs');
const WORKER_URL = new URL(COMPILED ? './align-thread.mjs' : './align-thread.ts', import.meta.url).href;
const BOOT = COMPILED
  ? `import(${JSON.stringify(WORKER_URL)});`
  : `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(WORKER_URL)}); });`;

export type ThreadOutcome =
  | { type: 'result'; json: string }
  | { type: 'audio_error'; code: string; message: string }
  | { type: 'input_error'; code: string | null; params: Record<string, string | number>; message: string }
  | { type: 'engine_fault'; message: string; stack: string | null }
  | { type: 'crash'; message: string }
  | { type: 'aborted' };

/** A transcript starting with this marker asks the fault hook for a fault (tests only). */
export const ENGINE_FAULT_MARKER = '[[tazamun-test-engine-fault]]';

/**
 * Test hook, never built by the server or worker entries: while `faults` is above 0, each run of a job
 * whose transcript starts with ENGINE_FAULT_MARKER makes its thread throw a WebAssembly.RuntimeError and
 * stay broken for every later job, as the decoder did in issue 11; `faults` counts down. The marker is
 * taken off the transcript either way. Only a pool given a hook starts threads that honour it.
 */
export interface EngineFaultHook {
  faults: number;
}

export interface ThreadPoolStats {
  /** threads started since the pool was made */
  started: number;
  /** threads terminated after an engine fault or a crash */
  retired: number;
}

/** Engine runs handed to a thread, and those that have ended (whatever their outcome). */
export interface ThreadPoolRuns {
  runs: number;
  ended: number;
}

export class AlignThreadPool {
  private idle: Worker[] = [];
  private all = new Set<Worker>();
  /** each thread's guard: it is terminated only outside onnxruntime's calls (native-guard.ts) */
  private readonly guards = new WeakMap<Worker, ThreadGuard>();
  private readonly counts: ThreadPoolStats = { started: 0, retired: 0 };
  private readonly work: ThreadPoolRuns = { runs: 0, ended: 0 };

  constructor(private readonly faultHook: EngineFaultHook | null = null) {}

  get stats(): ThreadPoolStats {
    return { ...this.counts };
  }

  get runs(): ThreadPoolRuns {
    return { ...this.work };
  }

  private take(): Worker {
    const w = this.idle.pop();
    if (w) return w;
    const guard = newThreadGuard();
    const workerData: AlignThreadData = {
      testHooks: this.faultHook !== null,
      [NATIVE_GUARD_KEY]: guard.chain,
    };
    const worker = new Worker(BOOT, { eval: true, workerData });
    this.guards.set(worker, guard);
    this.counts.started += 1;
    this.all.add(worker);
    // a thread being stopped may still throw (its next native call refuses to start): nothing to do
    worker.on('error', () => undefined);
    worker.once('exit', () => {
      this.all.delete(worker);
      this.idle = this.idle.filter((x) => x !== worker);
    });
    return worker;
  }

  private withHook(req: AlignThreadRequest): AlignThreadRequest {
    if (!this.faultHook || !req.text.startsWith(ENGINE_FAULT_MARKER)) return req;
    const testFault = this.faultHook.faults > 0;
    if (testFault) this.faultHook.faults -= 1;
    return { ...req, text: req.text.slice(ENGINE_FAULT_MARKER.length), testFault };
  }

  run(
    request: AlignThreadRequest,
    signal: AbortSignal,
    onProgress: (m: Extract<AlignThreadMessage, { type: 'progress' }>) => void,
  ): Promise<ThreadOutcome> {
    if (signal.aborted) return Promise.resolve({ type: 'aborted' });
    const req = this.withHook(request);
    const worker = this.take();
    return new Promise<ThreadOutcome>((resolve) => {
      let settled = false;
      const settle = (o: ThreadOutcome, keep: boolean): void => {
        if (settled) return;
        settled = true;
        this.work.ended += 1;
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        signal.removeEventListener('abort', onAbort);
        if (keep) this.idle.push(worker);
        else {
          if (o.type === 'engine_fault' || o.type === 'crash') this.counts.retired += 1;
          // a thread that cannot be stopped cleanly is gone either way
          this.stop(worker).catch(() => undefined);
        }
        resolve(o);
      };
      const onMessage = (m: AlignThreadMessage): void => {
        if (m.type === 'progress') onProgress(m);
        else settle(m, m.type !== 'engine_fault');
      };
      const onError = (err: Error): void => settle({ type: 'crash', message: err.message }, false);
      const onExit = (code: number): void =>
        settle({ type: 'crash', message: `worker thread exited with code ${code}` }, false);
      const onAbort = (): void => settle({ type: 'aborted' }, false);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal.addEventListener('abort', onAbort, { once: true });
      this.work.runs += 1;
      worker.postMessage(req);
    });
  }

  private stop(worker: Worker): Promise<number> {
    const guard = this.guards.get(worker);
    return guard ? stopThread(worker, guard) : worker.terminate();
  }

  async close(): Promise<void> {
    const all = [...this.all];
    this.idle = [];
    await Promise.allSettled(all.map((w) => this.stop(w)));
  }
}
