// Stopping a worker thread safely while it may be inside onnxruntime.
//
// onnxruntime-node's native calls (a session's run, its creation) return their results through N-API.
// When `worker.terminate()` lands while such a call runs, the call's return into a terminating thread
// throws a C++ Napi::Error that nothing catches, and the whole process aborts (SIGABRT): the server and
// every other user's job with it. So a thread is never terminated in the middle of a native call: each
// native call is counted in shared memory, a thread that is to be stopped is first told so (its next
// native call refuses to start), and the host terminates it only once the count is back at zero.
//
// The guard is a chain: a thread started by another thread (the window threads of a long recording,
// started by a job's thread) counts its native calls in its own guard and in every ancestor's, so
// stopping a job's thread also waits for its window threads' calls and forbids new ones.
import { workerData } from 'node:worker_threads';
import type { Worker } from 'node:worker_threads';

/** The key of the guard chain in a worker's `workerData` (an object). */
export const NATIVE_GUARD_KEY = 'tazamunNativeGuard';

/** [0]: the thread is to stop; [1]: native calls in progress in the thread and its descendants */
const STOP = 0;
const CALLS = 1;

/** Thrown by a native call that was about to start in a thread being stopped. */
export class ThreadStopping extends Error {
  constructor() {
    super('the thread is being stopped');
    this.name = 'ThreadStopping';
  }
}

let chain: Int32Array[] | null = null;

function currentChain(): Int32Array[] {
  if (chain) return chain;
  const data = workerData as Record<string, unknown> | null | undefined;
  const given = data && typeof data === 'object' ? data[NATIVE_GUARD_KEY] : undefined;
  chain = Array.isArray(given)
    ? given
        .filter((b): b is SharedArrayBuffer => b instanceof SharedArrayBuffer)
        .map((b) => new Int32Array(b))
    : [];
  return chain;
}

/** A guard for a thread about to be started from this one. */
export interface ThreadGuard {
  /** the buffer this thread's host stops it with */
  own: SharedArrayBuffer;
  /** what goes into the new thread's workerData under NATIVE_GUARD_KEY */
  chain: SharedArrayBuffer[];
}

export function newThreadGuard(): ThreadGuard {
  const own = new SharedArrayBuffer(8);
  return { own, chain: [...currentChain().map((g) => g.buffer as SharedArrayBuffer), own] };
}

/** Runs one native call counted in this thread's guards; refuses to start it while the thread stops. */
export async function nativeCall<T>(call: () => Promise<T>): Promise<T> {
  const guards = currentChain();
  for (const g of guards) Atomics.add(g, CALLS, 1);
  const leave = (): void => {
    for (const g of guards) Atomics.sub(g, CALLS, 1);
  };
  if (guards.some((g) => Atomics.load(g, STOP) !== 0)) {
    leave();
    throw new ThreadStopping();
  }
  try {
    return await call();
  } finally {
    leave();
  }
}

/**
 * Terminates a thread once no native call runs in it or its descendants. A thread that never leaves a
 * native call is terminated after `maxWaitMs` anyway (no native call here takes more than a fraction of
 * a second).
 */
export async function stopThread(worker: Worker, guard: ThreadGuard, maxWaitMs = 30_000): Promise<number> {
  const g = new Int32Array(guard.own);
  Atomics.store(g, STOP, 1);
  const until = Date.now() + maxWaitMs;
  while (Atomics.load(g, CALLS) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 2));
  return worker.terminate();
}
