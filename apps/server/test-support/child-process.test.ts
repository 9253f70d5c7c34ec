// The shared child-process helper on tiny scripts: it hands back the ready line's match, turns an early
// exit or a missing ready line into an error that quotes the child's output, reports exit codes, and
// kills what it started when the test ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './jobs-test-app.ts';
import { startChild } from './child-process.ts';

function script(dir: string, name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, body);
  return file;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('the ready line is matched across stdout and stderr; the exit code of a SIGTERM shutdown is reported', async (t) => {
  const dir = tempDir(t);
  const file = script(
    dir,
    'ready.mjs',
    `console.error('warming up');
     setTimeout(() => console.log('listening on port ' + process.env.THE_PORT), 50);
     process.on('SIGTERM', () => process.exit(0));
     setInterval(() => undefined, 1000);`,
  );
  const child = await startChild(t, file, { env: { THE_PORT: '4321' }, ready: /listening on port (\d+)/ });
  assert.equal(child.match[1], '4321');
  assert.match(child.output(), /warming up/);
  assert.ok(alive(child.pid));
  child.kill('SIGTERM');
  assert.deepEqual(await child.exited(), { code: 0, signal: null });
});

test('an exit before the ready line, or no ready line at all, fails with what the child printed', async (t) => {
  const dir = tempDir(t);
  const crash = script(dir, 'crash.mjs', `console.error('DATABASE_URL: not a valid URL'); process.exit(78);`);
  await assert.rejects(startChild(t, crash, { ready: /never/ }), (err: Error) => {
    assert.match(err.message, /crash\.mjs exited \(78\) before it was ready/);
    assert.match(err.message, /DATABASE_URL: not a valid URL/);
    return true;
  });
  const mute = script(
    dir,
    'mute.mjs',
    `console.log('pid ' + process.pid); setInterval(() => undefined, 1000);`,
  );
  // the guard is generous so that even a slow start prints its first line before it fires
  await assert.rejects(startChild(t, mute, { ready: /ready/, readyWithinMs: 10_000 }), (err: Error) => {
    assert.match(err.message, /mute\.mjs did not print \/ready\/ within 10000 ms/);
    assert.match(err.message, /pid \d+/);
    return true;
  });
});

test('a child still running when its test ends is killed and reaped', async (t) => {
  const dir = tempDir(t);
  const file = script(dir, 'stay.mjs', `console.log('up'); setInterval(() => undefined, 1000);`);
  let pid = 0;
  await t.test('the inner test leaves it running', async (inner) => {
    pid = (await startChild(inner, file, { ready: /up/ })).pid;
    assert.ok(alive(pid));
  });
  assert.equal(alive(pid), false, `pid ${pid} outlived its test`);
});
