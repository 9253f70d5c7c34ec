// A throwaway redis-server from Debian's `redis-server` package on a free loopback port, without
// persistence unless asked (an append-only file, as production should run it). restart() brings it back
// on the same port and folder, for outage tests.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './postgres-server.ts';

export const REDIS_SERVER = '/usr/bin/redis-server';

export interface RedisTestServer {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** stops the server but keeps its port and folder for restart() */
  down(): Promise<void>;
  restart(): Promise<void>;
  /** SIGSTOP: the server keeps its connections but answers nothing (a frozen host), until resume() */
  pause(): void;
  resume(): void;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => s.write('PING\r\n'));
    s.once('data', (d) => {
      s.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    s.once('error', () => resolve(false));
  });
}

export async function startRedis(options: { persist?: boolean } = {}): Promise<RedisTestServer> {
  if (!existsSync(REDIS_SERVER))
    throw new Error(
      `${REDIS_SERVER} not found: install the Debian package redis-server (npm test does this as root)`,
    );
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-redis-'));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const launch = async (): Promise<void> => {
    child = spawn(
      REDIS_SERVER,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        options.persist ? 'yes' : 'no',
        '--dir',
        dir,
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 300; i++) {
      if (await answers(port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server did not answer on port ${port}`);
  };
  const halt = (): Promise<void> =>
    new Promise((resolve) => {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
    });
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
    down: halt,
    async restart() {
      await halt();
      await launch();
    },
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
  };
}
