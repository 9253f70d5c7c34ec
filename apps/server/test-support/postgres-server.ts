// A throwaway PostgreSQL cluster from Debian's `postgresql` package: initdb into a temp dir, postgres on
// a free loopback port, trust auth for loopback only, durability off (tests never need a crash-safe
// disk). Root cannot run postgres, so as root the cluster belongs to the `postgres` system user.
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PostgresServer {
  /** connection URL of the `postgres` database as the superuser (`tazamun` unless asked otherwise) */
  url: string;
  port: number;
  dir: string;
  /** the running server process, for fault tests that stop or restart it */
  process: ChildProcess;
  stop(): Promise<void>;
  /** stops the server (fast shutdown: clients are disconnected) but keeps its port and data */
  down(): Promise<void>;
  /** down(), then the same cluster again on the same port */
  restart(): Promise<void>;
}

/** The newest installed server, e.g. /usr/lib/postgresql/15/bin. Throws when the package is absent. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin: install the Debian package ' +
        '`postgresql` (npm test does this as root)',
    );
  return join(root, versions[0]!, 'bin');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * As root, the uid/gid of the `postgres` system user (created by the Debian package). Spawning with
 * them directly, rather than through runuser, lets signals reach postgres itself.
 */
function owner(): { uid: number; gid: number } | Record<string, never> {
  if (!isRoot()) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function waitForPostgres(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return;
    } catch (err) {
      last = err;
      await client.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`PostgreSQL did not accept connections at ${url}: ${String(last)}`);
}

export interface PostgresOptions {
  /** the cluster's superuser (initdb -U); `tazamun` by default */
  superuser?: string;
  /**
   * true: TCP connections must give a password (scram-sha-256), as on a real server; the superuser
   * then connects through the cluster's Unix socket (in `dir`), and `url` says so.
   */
  passwords?: boolean;
}

export async function startPostgres(options: PostgresOptions = {}): Promise<PostgresServer> {
  const superuser = options.superuser ?? 'tazamun';
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-pg-'));
  const user = owner();
  if ('uid' in user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const initArgs = [
    '-D',
    data,
    '-U',
    superuser,
    ...(options.passwords ? ['--auth-local=trust', '--auth-host=scram-sha-256'] : ['--auth=trust']),
    '-E',
    'UTF8',
    // C collation: byte order, the same as SQLite's default, so ORDER BY on text agrees.
    '--no-locale',
    '--no-sync',
  ];
  execFileSync(join(bin, 'initdb'), initArgs, { stdio: 'pipe', cwd: dir, ...user });
  const port = await freePort();
  const args = [
    '-D',
    data,
    '-p',
    String(port),
    '-h',
    '127.0.0.1',
    '-k',
    dir,
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=300',
  ];
  let log = '';
  let child: ChildProcess;
  const url = options.passwords
    ? `postgres://${superuser}@localhost:${port}/postgres?host=${encodeURIComponent(dir)}`
    : `postgres://${superuser}@127.0.0.1:${port}/postgres`;
  const launch = async (): Promise<void> => {
    child = spawn(join(bin, 'postgres'), args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      cwd: dir,
      ...user,
    });
    child.stderr?.on('data', (c: Buffer) => {
      log = (log + c.toString()).slice(-4000);
    });
    try {
      await waitForPostgres(url);
    } catch (err) {
      child.kill('SIGKILL');
      throw new Error(`${(err as Error).message}\n${log}`);
    }
  };
  // SIGINT is postgres' "fast" shutdown: it disconnects clients and exits.
  const halt = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const c = child;
      if (c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill('SIGINT');
    });
  try {
    await launch();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  let stopped: Promise<void> | null = null;
  return {
    url,
    port,
    dir,
    get process() {
      return child;
    },
    stop() {
      stopped ??= halt().then(() => rmSync(dir, { recursive: true, force: true }));
      return stopped;
    },
    down: halt,
    async restart() {
      await halt();
      await launch();
    },
  };
}

/** Runs a statement synchronously with psql (for sync call sites such as testConfig). */
export function psqlSync(url: string, statement: string): void {
  execFileSync(
    join(postgresBinDir(), 'psql'),
    ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', statement],
    {
      stdio: 'pipe',
    },
  );
}
