// The native module's calls need no native-guard.ts count (ADR 0102): threads calling it without pause are
// terminated at random moments, forty times, in a child process (a failure would take the process down),
// and the process must live to say so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nativeAddon, nativeAddonMissing } from './addon.ts';
import { assertSurvives } from '../../test-support/survives.ts';

const SCENARIO = `
import { Worker } from 'node:worker_threads';
const boot = () => new Worker(
  \`import(\${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(\${JSON.stringify(${JSON.stringify(new URL('./addon.test-thread.ts', import.meta.url).href)})}); });\`,
  { eval: true },
);
let stopped = 0;
for (let i = 0; i < 40; i++) {
  const w = boot();
  const running = new Promise((r, j) => { w.once('message', r); w.once('error', j); });
  await running;
  await new Promise((r) => setTimeout(r, Math.random() * 40));
  await w.terminate();
  stopped++;
}
console.log('stopped ' + stopped);
`;

test('threads terminated in the middle of the native module calls, forty times: the process lives', () => {
  assert.ok(nativeAddon(), `the native module is not built: ${nativeAddonMissing()}`);
  assertSurvives(SCENARIO, /stopped 40/);
});
