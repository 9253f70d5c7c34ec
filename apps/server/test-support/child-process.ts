// Runs one of the server's entry points (server.ts, worker.ts, …) as a real child process under tsx, for
// tests of the multi-process shapes. The child is bound to the node:test context: whatever happens in
// the test, it is killed and reaped in t.after, so a failed assertion never leaves a server running.
// Its stdout and stderr are kept (the tail) so that an early exit or a hang names what the child said.
// The deadlines here only turn a hang into a failure with that output; no test asserts on timing.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';

/** apps/server/src: relative entries are resolved against it. */
export const SERVER_SRC = join(dirname(fileURLToPath(import.meta.url)), '../src');

/** server.ts's listening line on loopback (it listens before its database is there); group 1 is the base URL. */
export const API_LISTENING = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/;

/** server.ts listening and its database migrated, in either order: its API serves. Group 1 is the base URL. */
export const API_SERVING =
  /^(?=[\s\S]*"msg":"database ready")[\s\S]*Server listening at (http:\/\/127\.0\.0\.1:\d+)/;

// Enough for the last few hundred log lines; older output is dropped so a chatty child cannot grow the
// test process without bound.
const KEEP_CHARS = 64_000;
const TAIL_CHARS = 4_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StartOptions {
  /** laid over process.env */
  env?: Record<string, string>;
  /** a line of stdout or stderr that says the child is ready; the match is handed back */
  ready: RegExp;
  /** hang guard for start-up (default 120 s: tsx compiles on a busy 2-core machine) */
  readyWithinMs?: number;
  /** output lines matching this are all kept, however long the child runs (see `kept()`) */
  keep?: RegExp;
}

export interface TestChild {
  /** the entry relative to SERVER_SRC, for messages */
  readonly name: string;
  readonly pid: number;
  readonly process: ChildProcess;
  /** the ready line's match */
  readonly match: RegExpExecArray;
  /** the last TAIL_CHARS of stdout and stderr together */
  output(): string;
  /** every line that matched `keep`, in order (JSON log lines parsed; others as { line }) */
  kept(): Record<string, unknown>[];
  kill(signal: NodeJS.Signals): void;
  /** resolves when the child has exited; rejects, with its output, if it is still running after withinMs */
  exited(withinMs?: number): Promise<Exit>;
}

/** `p`, or the error `expired()` makes once `ms` have passed: a hang guard, never a timing check. */
function deadline<T>(p: Promise<T>, ms: number, expired: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(expired()), ms);
  });
  return Promise.race([p, hang]).finally(() => clearTimeout(timer));
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Spawns `node --import tsx <entry>` and resolves once its output matches `options.ready`. Rejects with
 * the child's output if it exits first or does not get ready within `readyWithinMs` (it is then killed).
 */
export async function startChild(t: TestContext, entry: string, options: StartOptions): Promise<TestChild> {
  const file = isAbsolute(entry) ? entry : join(SERVER_SRC, entry);
  const name = relative(SERVER_SRC, file);
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const tail = () => out.slice(-TAIL_CHARS);
  const keptLines: Record<string, unknown>[] = [];
  const partial = { stdout: '', stderr: '' };
  const keepFrom = (stream: 'stdout' | 'stderr', chunk: string): void => {
    if (!options.keep) return;
    const lines = (partial[stream] + chunk).split('\n');
    partial[stream] = lines.pop() ?? '';
    for (const line of lines) {
      if (!options.keep.test(line)) continue;
      try {
        keptLines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        keptLines.push({ line });
      }
    }
  };
  let matched = false;
  let signalled = false;
  // created at once, so an exit is never missed whenever the test comes to wait for it
  const exit = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  // 'close' follows 'exit' once the pipes are drained: the last words of a crash arrive in between
  const drained = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.stdout!.closed && child.stderr!.closed) return resolve();
      const timer = setTimeout(resolve, 1_000);
      child.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  // a spawn failure (ENOENT, EAGAIN …) comes as 'error' and may come without 'exit'
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  const exited = (withinMs = 120_000): Promise<Exit> =>
    deadline(
      exit,
      withinMs,
      () => new Error(`${name} (pid ${child.pid}) still running after ${withinMs} ms:\n${tail()}`),
    );
  const kill = (signal: NodeJS.Signals): void => {
    signalled = true;
    if (!hasExited(child)) child.kill(signal);
  };
  // SIGKILL, as nothing is checked after the test; reaped, so no child outlives the test file
  t.after(async () => {
    kill('SIGKILL');
    await exit;
  });
  // a child that dies on its own mid-test shows up only as refused connections: say why it died
  void exit.then(async ({ code, signal }) => {
    if (signalled || !matched) return;
    await drained();
    t.diagnostic(`${name} (pid ${child.pid}) exited (${code ?? signal}) on its own:\n${tail()}`);
  });

  const ready = new Promise<RegExpExecArray>((resolve, reject) => {
    const onData = (chunk: string): void => {
      out = (out + chunk).slice(-KEEP_CHARS);
      if (matched) return;
      const m = options.ready.exec(out);
      if (m) {
        matched = true;
        resolve(m);
      }
    };
    for (const [name, stream] of [
      ['stdout', child.stdout!],
      ['stderr', child.stderr!],
    ] as const) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        keepFrom(name, chunk);
        onData(chunk);
      });
    }
    void exit.then(async ({ code, signal }) => {
      await drained();
      reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${tail()}`));
    });
    void spawnError.then((err) => reject(new Error(`${name} could not be started: ${err.message}`)));
  });
  const readyWithinMs = options.readyWithinMs ?? 120_000;
  const match = await deadline(ready, readyWithinMs, () => {
    kill('SIGKILL');
    return new Error(`${name} did not print ${options.ready} within ${readyWithinMs} ms:\n${tail()}`);
  });

  return {
    name,
    pid: child.pid!,
    process: child,
    match,
    output: tail,
    kept: () => [...keptLines],
    kill,
    exited,
  };
}
