// A scenario that may take its process down (a thread stopped inside native code), run in a child
// process under tsx: the test passes when the child exits by itself with status 0 and prints `expect`.
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';

export function assertSurvives(scenario: string, expect: RegExp, timeoutMs = 240_000): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', scenario], {
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  assert.equal(r.signal, null, `the process died of ${r.signal}: ${r.stderr}`);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, expect);
}
