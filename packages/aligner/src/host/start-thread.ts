// The one way a worker thread of this repository is started, from the sources or from a compiled bundle.
// Compiled (scripts/build-node.mjs), this module sits inside the bundle that starts the thread, and the
// thread's own bundle was built beside it under its entry name; from the sources, worker threads do not
// inherit tsx's loader, so a short bootstrap registers it and then imports the thread's module.
import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';

const COMPILED = import.meta.url.endsWith('.mjs');

/**
 * Starts the thread whose source module is `source` (a `.ts` file URL) and whose compiled bundle is
 * `<bundle>.mjs` beside the running bundle. Every program that starts this thread must list that entry
 * in its build (packages/aligner/scripts/build-cli.mjs, apps/server/scripts/build-server.mjs).
 */
export function startThread(source: URL, bundle: string, options: WorkerOptions = {}): Worker {
  if (COMPILED) return new Worker(new URL(`./${bundle}.mjs`, import.meta.url), options);
  const boot =
    `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})` +
    `.then((m) => { m.register(); return import(${JSON.stringify(source.href)}); });`;
  return new Worker(boot, { ...options, eval: true });
}
