// What a recording's piece threads were given to run: WindowPool.run and takeBack observed (not replaced)
// while `during` runs, each job weighed by `weight` when given and taken off again when taken back (this
// thread ran it after all).
import { WindowPool } from '../src/align/window-pool.ts';
import type { PieceJob } from '../src/align/window-pool.ts';

export async function onThreads<T>(
  weight: (job: PieceJob) => number,
  during: () => Promise<T>,
): Promise<{ result: T; total: number }> {
  let total = 0;
  const { run, takeBack } = WindowPool.prototype;
  WindowPool.prototype.run = function (this: WindowPool, job) {
    total += weight(job);
    return run.call(this, job);
  };
  WindowPool.prototype.takeBack = function (this: WindowPool) {
    const taken = takeBack.call(this);
    if (taken) total -= weight(taken.job);
    return taken;
  };
  try {
    return { result: await during(), total };
  } finally {
    Object.assign(WindowPool.prototype, { run, takeBack });
  }
}
