// Terminating a thread inside onnxruntime aborts the process (native-guard.ts). The scenario runs in a
// child process, since a failure takes the process down with it: threads that run onnxruntime without
// pause are stopped at random moments, forty times, and the process must live to say so.
import { test } from 'node:test';
import { assertSurvives } from '../test-support/survives.ts';

const SCENARIO = `
import { Worker, isMainThread } from 'node:worker_threads';
import { NATIVE_GUARD_KEY, newThreadGuard, stopThread } from ${JSON.stringify(new URL('./native-guard.ts', import.meta.url).href)};
const boot = (data) => new Worker(
  \`import(\${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(\${JSON.stringify(${JSON.stringify(new URL('./native-guard.test-thread.ts', import.meta.url).href)})}); });\`,
  { eval: true, workerData: data },
);
let stopped = 0;
for (let i = 0; i < 40; i++) {
  const guard = newThreadGuard();
  const w = boot({ [NATIVE_GUARD_KEY]: guard.chain });
  w.on('error', (e) => { if (e.name !== 'ThreadStopping') throw e; });
  const running = new Promise((r) => w.once('message', r));
  await running;
  await new Promise((r) => setTimeout(r, Math.random() * 60));
  await stopThread(w, guard);
  stopped++;
}
console.log('stopped ' + stopped);
`;

test('threads stopped in the middle of onnxruntime calls, forty times: the process lives', () => {
  assertSurvives(SCENARIO, /stopped 40/);
});
