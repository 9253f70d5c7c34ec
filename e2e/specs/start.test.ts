// `npm start` stops as a whole: stopping npm by its process id (the shell between npm and the launcher
// does not pass the signal on) or the launcher itself with SIGINT leaves neither the launcher nor the
// server running, and the port is free again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../src/harness.ts';
import { until } from '@tazamun/server/testing/until';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const a = probe.address();
      probe.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** Every live process whose command line mentions `marker` (its DATA_DIR), from /proc. */
function processesWith(marker: string): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8');
      if (env.includes(marker)) out.push(Number(pid));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return out;
}

const healthy = async (url: string) => {
  try {
    return (await fetch(`${url}/api/health/`)).ok;
  } catch {
    return false;
  }
};

for (const [how, target] of [
  ['npm stopped by its process id (SIGTERM)', 'npm'],
  ['the launcher stopped with SIGINT (Ctrl+C)', 'launcher'],
] as const) {
  test(`npm start: ${how} stops the launcher and the server`, { timeout: 300_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tazamun-start-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let log = '';
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DEMO_MEDIA_DIR: '',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    npm.stdout.on('data', (c: Buffer) => (log += c.toString()));
    npm.stderr.on('data', (c: Buffer) => (log += c.toString()));
    try {
      await until(
        'the server to answer',
        async () => (await healthy(url)) || (npm.exitCode === null ? false : Promise.reject(new Error(log))),
      );
      const started = processesWith(dataDir);
      assert.ok(started.length >= 2, `the launcher and the server run: ${started.join(' ')}`);
      if (target === 'npm') npm.kill('SIGTERM');
      else {
        // the node process itself, not the `sh -c` npm runs it through
        const launcher = started.find((pid) => {
          const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
          return /(^|\/)node$/.test(argv[0]!) && argv[1] === 'scripts/start.mjs';
        });
        assert.ok(launcher, 'the launcher is found');
        process.kill(launcher, 'SIGINT');
      }
      await until('every process of this start to end', () => processesWith(dataDir).length === 0);
      assert.equal(await healthy(url), false, 'nothing answers on the port any more');
    } finally {
      for (const pid of processesWith(dataDir)) process.kill(pid, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
