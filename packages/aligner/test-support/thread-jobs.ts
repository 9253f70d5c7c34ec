// What a recording's piece threads were given to run: WindowPool.run and takeBack observed (not replaced)
// while `during` runs, each job weighed by `weight` when given (`given`), and taken off again when taken
// back (`total`: this thread ran it after all). How many of a few jobs given a thread starts before this
// thread takes the rest back depends on timing: a test that needs `total` above 0 gives many.
import { WindowPool } from '../src/align/window-pool.ts';
import type { PieceJob } from '../src/align/window-pool.ts';

export async function onThreads<T>(
  weight: (job: PieceJob) => number,
  during: () => Promise<T>,
): Promise<{ result: T; total: number; given: number }> {
  let total = 0;
  let given = 0;
  const { run, takeBack } = WindowPool.prototype;
  WindowPool.prototype.run = function (this: WindowPool, job) {
    total += weight(job);
    given += weight(job);
    return run.call(this, job);
  };
  WindowPool.prototype.takeBack = function (this: WindowPool) {
    const taken = takeBack.call(this);
    if (taken) total -= weight(taken.job);
    return taken;
  };
  try {
    return { result: await during(), total, given };
  } finally {
    Object.assign(WindowPool.prototype, { run, takeBack });
  }
}
