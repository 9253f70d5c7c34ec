// The one engine host: worker threads that run engine tasks (protocol.ts) for the server's jobs and the
// CLI's batches, kept alive between tasks so each thread loads its models once. A thread is kept only
// after a task that ended cleanly (a result, or an error in the user's input or audio). A thread that was
// terminated (abort), crashed, or whose engine failed is retired: an engine fault can leave the WASM
// decoder's memory broken, and a broken thread kept idle received every next task (issue 11).
//
// Retrying a faulted task once on a fresh thread is the caller's unit of work: runRetrying() for a CLI
// item; for a server job, the job runner (a retry there survives a restart and waits out a backoff).
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { NATIVE_GUARD_KEY, newThreadGuard, stopThread } from '../native-guard.ts';
import type { ThreadGuard } from '../native-guard.ts';
import { isFault } from './outcome.ts';
import type { EngineOutcome, EngineProgress, EngineTask, ThreadData, ThreadMessage } from './protocol.ts';
import { startThread } from './start-thread.ts';

/** A transcript starting with this marker asks the fault hook for a fault (tests only). */
export const ENGINE_FAULT_MARKER = '[[tazamun-test-engine-fault]]';

/**
 * Test hook, never built by the server, the worker or the CLI: while `faults` is above 0, each run of a
 * task whose transcript starts with ENGINE_FAULT_MARKER makes its thread throw a WebAssembly.RuntimeError
 * and stay broken for every later task, as the decoder did in issue 11; `faults` counts down. The marker
 * is taken off the transcript either way. Only a host given a hook starts threads that honour it.
 */
export interface EngineFaultHook {
  faults: number;
}

export interface EngineHostStats {
  /** threads started since the host was made */
  started: number;
  /** threads terminated after an engine fault or a crash */
  retired: number;
}

/** Tasks handed to a thread, and those that have ended (whatever their outcome). */
export interface EngineHostRuns {
  runs: number;
  ended: number;
}

export interface RunOptions {
  /** aborting it terminates the task's thread; the outcome is then `aborted` */
  signal?: AbortSignal;
  onProgress?: (progress: EngineProgress) => void;
  /** run on a newly started thread, not an idle one */
  fresh?: boolean;
  /**
   * Run on a thread of its own started with these V8 heap limits, stopped after the task whatever its
   * outcome (an adaptation: its memory goes with the thread). A task over its heap limit ends as a
   * `crash`.
   */
  resourceLimits?: ResourceLimits;
}

const THREAD_SOURCE = new URL('./engine-thread.ts', import.meta.url);
/** the thread's bundle name in every build that starts it */
export const ENGINE_THREAD_BUNDLE = 'engine-thread';

export class EngineHost {
  private idle: Worker[] = [];
  /** every live thread with its guard: it is terminated only outside onnxruntime's calls (native-guard.ts) */
  private readonly all = new Map<Worker, ThreadGuard>();
  private readonly counts: EngineHostStats = { started: 0, retired: 0 };
  private readonly work: EngineHostRuns = { runs: 0, ended: 0 };

  constructor(private readonly faultHook: EngineFaultHook | null = null) {}

  get stats(): EngineHostStats {
    return { ...this.counts };
  }

  get runs(): EngineHostRuns {
    return { ...this.work };
  }

  private take(fresh: boolean, resourceLimits?: ResourceLimits): Worker {
    const idle = fresh || resourceLimits ? undefined : this.idle.pop();
    if (idle) return idle;
    const guard = newThreadGuard();
    const workerData: ThreadData = { testHooks: this.faultHook !== null, [NATIVE_GUARD_KEY]: guard.chain };
    const worker = startThread(THREAD_SOURCE, ENGINE_THREAD_BUNDLE, { workerData, resourceLimits });
    this.counts.started += 1;
    this.all.set(worker, guard);
    // a thread being stopped may still throw (its next native call refuses to start): nothing to do
    worker.on('error', () => undefined);
    worker.once('exit', () => {
      this.all.delete(worker);
      this.idle = this.idle.filter((x) => x !== worker);
    });
    return worker;
  }

  private withHook(task: EngineTask): EngineTask {
    if (!this.faultHook || task.kind !== 'align' || !task.text.startsWith(ENGINE_FAULT_MARKER)) return task;
    const testFault = this.faultHook.faults > 0;
    if (testFault) this.faultHook.faults -= 1;
    return { ...task, text: task.text.slice(ENGINE_FAULT_MARKER.length), testFault };
  }

  /** Runs the task on an idle thread (or a new one) and resolves with its outcome; never rejects. */
  run(task: EngineTask, options: RunOptions = {}): Promise<EngineOutcome> {
    const { signal, onProgress } = options;
    if (signal?.aborted) return Promise.resolve({ type: 'aborted' });
    const sent = this.withHook(task);
    const dedicated = options.resourceLimits !== undefined;
    const worker = this.take(options.fresh === true, options.resourceLimits);
    return new Promise<EngineOutcome>((resolve) => {
      let settled = false;
      const settle = (o: EngineOutcome): void => {
        if (settled) return;
        settled = true;
        this.work.ended += 1;
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        const keep = o.type !== 'aborted' && !isFault(o) && !dedicated;
        if (keep) this.idle.push(worker);
        else {
          if (isFault(o)) this.counts.retired += 1;
          // a thread that cannot be stopped cleanly is gone either way
          this.stop(worker).catch(() => undefined);
        }
        resolve(o);
      };
      const onMessage = (m: ThreadMessage): void => {
        if (m.type === 'progress') onProgress?.({ stage: m.stage, done: m.done });
        else settle(m);
      };
      const onError = (err: Error): void =>
        settle({ type: 'crash', message: `the worker thread failed: ${err.message}` });
      const onExit = (code: number): void =>
        settle({ type: 'crash', message: `the worker thread exited with code ${code}` });
      const onAbort = (): void => settle({ type: 'aborted' });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.work.runs += 1;
      worker.postMessage(sent);
    });
  }

  /**
   * Runs the task; after an engine fault (its thread retired) runs it once more on a fresh thread. A
   * second fault reports its own cause, and the first attempt's when it differs.
   */
  async runRetrying(
    task: EngineTask,
    options: Omit<RunOptions, 'fresh'> = {},
  ): Promise<{ outcome: EngineOutcome; retried: boolean }> {
    const first = await this.run(task, options);
    if (!isFault(first)) return { outcome: first, retried: false };
    const second = await this.run(task, { ...options, fresh: true });
    if (isFault(second)) {
      const [a, b] = [first.message, second.message];
      return { outcome: { ...second, message: a === b ? b : `${b} (first attempt: ${a})` }, retried: true };
    }
    return { outcome: second, retried: true };
  }

  /** Every engine thread is stopped here, never inside a native call (native-guard.ts). */
  private stop(worker: Worker): Promise<number> {
    const guard = this.all.get(worker);
    // a thread that has exited has left `all`: terminating it again does nothing
    return guard ? stopThread(worker, guard) : worker.terminate();
  }

  async close(): Promise<void> {
    const all = [...this.all.keys()];
    this.idle = [];
    await Promise.allSettled(all.map((worker) => this.stop(worker)));
  }
}
