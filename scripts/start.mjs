#!/usr/bin/env node
// `npm start`: build the web app and compile the server when their builds are missing or older than their
// sources, then run the server (API + web + worker threads) as JavaScript; the TypeScript sources under tsx
// are the fallback when it cannot be compiled. `--role=api` / `--role=worker` start one part only.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNative, buildWeb, server } from './build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const role = (process.argv.find((a) => a.startsWith('--role=')) ?? '--role=all').slice('--role='.length);

// stdout carries JSON lines only, as the server's own (pino's shape); the build tools write to stderr
function log(level, msg, extra = {}) {
  const levels = { info: 30, warn: 40, error: 50 };
  const line = { level: levels[level], time: Date.now(), pid: process.pid, hostname: hostname() };
  console.log(JSON.stringify({ ...line, name: 'start', ...extra, msg }));
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === '.build-lock') continue;
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const webDir = join(root, 'apps/web');
const built = join(webDir, 'dist/index.html');
const isStale = () =>
  !existsSync(built) ||
  newestMtime(webDir) > statSync(built).mtimeMs ||
  newestMtime(join(root, 'packages/contracts/src')) > statSync(built).mtimeMs;

// Several processes started together on one checkout (a systemd template, a compose file) must not each
// rebuild into the same dist/: one builds under a lock directory (mkdir is atomic), the others wait for
// it and then find the builds fresh. A lock older than LOCK_STALE_MS was left by a build that died, and
// is taken over. A tree that cannot be written (ProtectSystem=strict, a checkout owned by another user)
// is not built into: false, and the process starts with what is there.
const lockDir = join(webDir, '.build-lock');
const LOCK_STALE_MS = 10 * 60_000;
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function takeLock() {
  for (;;) {
    try {
      mkdirSync(lockDir);
      return true;
    } catch (err) {
      if (['EROFS', 'EACCES', 'EPERM'].includes(err.code)) return false;
      if (err.code !== 'EEXIST') throw err;
      let age = 0;
      try {
        age = Date.now() - statSync(lockDir).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      if (age > LOCK_STALE_MS) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      sleep(500);
    }
  }
}

// the engine's native Gaussian kernel: built by `npm install` where there is a C compiler; rebuilt here
// when gmm.c changed (nothing to do otherwise). Without it the engine runs on onnxruntime.
if (role !== 'api') {
  const native = buildNative();
  if (native.built) log('info', 'built the native Gaussian kernel');
  if (!native.ok)
    log(
      'warn',
      'the native module is not built: the engine uses onnxruntime and JavaScript (about 1.5 times the CPU a job)',
      {
        reason: native.reason,
      },
    );
}

const webStale = () => role !== 'worker' && isStale();
let compiled = server.isFresh();
if (webStale() || !compiled) {
  if (!takeLock()) {
    // nothing is built here: `npm run build` at install does it (docs/deploy.md, step 1)
    log(
      'warn',
      'the checkout is read-only and its build is missing or older than the sources: run `npm run build`',
      {
        web_stale: webStale(),
        server_stale: !compiled,
      },
    );
  } else {
    try {
      // another process may have built them while this one waited
      if (webStale()) {
        log('info', 'building the web app (its output on stderr)');
        // The API is useful without the web app: serve it (and any older bundle) rather than refuse to start.
        if (!(await buildWeb(['ignore', 2, 2]))) log('warn', 'the web build failed; starting the API anyway');
      }
      compiled = server.isFresh();
      if (!compiled) {
        log('info', 'compiling the server');
        compiled = await server.build().then(
          () => true,
          (err) => {
            log('warn', 'the server could not be compiled; running its sources', { err: err.message });
            return false;
          },
        );
      }
    } finally {
      rmSync(lockDir, { recursive: true, force: true });
    }
  }
}

const name = role === 'worker' ? 'worker' : 'server';
const args = compiled ? [server.entry(name)] : ['--import', 'tsx', join(root, `apps/server/src/${name}.ts`)];
const child = spawn(process.execPath, [...args, `--role=${role}`], {
  cwd: root,
  stdio: 'inherit',
});
// Stopping: SIGINT or SIGTERM is passed to the server, which drains and exits; this launcher then exits
// with it. `npm start` runs this file through `sh -c`, and stopping npm by its process id ends that
// shell without passing the signal on: under npm (npm_lifecycle_event is set), a parent that changes
// (the shell gone) therefore counts as SIGTERM too, and nothing keeps running after npm has gone. Run
// directly (`nohup node scripts/start.mjs &`, a service manager), losing the parent stops nothing.
let stopping = null;
const stop = (signal) => {
  if (stopping) return;
  stopping = signal;
  child.kill(signal);
};
// (not SIGHUP: `nohup npm start` must outlive its terminal)
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stop(sig));
const parent = process.ppid;
const orphaned = process.env.npm_lifecycle_event
  ? setInterval(() => {
      if (process.ppid !== parent) stop('SIGTERM');
    }, 500)
  : null;
child.on('exit', (code, signal) => {
  if (orphaned) clearInterval(orphaned);
  if (signal) {
    // end the way the server ended, so a service manager sees the same status
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 0);
});
