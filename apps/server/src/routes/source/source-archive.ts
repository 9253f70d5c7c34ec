// AGPL-3.0 §13: whoever uses Tazamun over a network must be offered the Corresponding Source of the
// version that runs. Unless SOURCE_URL points elsewhere, the server packs its own tree on request.
// What goes in is the list of files git tracks (`git ls-files`): an untracked file anywhere in the tree
// (a .pgpass, a database dump, a deploy key) is never served, whatever its name. A tree without git
// (an npm tarball, an image built without .git) falls back to a walk from an allow-list of top-level
// paths that skips installed packages, build output and anything that looks like a secret or a data
// file; that fallback is a deny-list inside the allowed folders, so the route logs a warning for it.
import { execFile, spawn } from 'node:child_process';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Readable } from 'node:stream';

/** Top-level files and folders tracked in the repository; anything else at the root is never packed. */
export const SOURCE_TOP_LEVEL = [
  '.ci',
  '.gitignore',
  '.prettierignore',
  '.prettierrc.json',
  'LICENSE',
  'README.md',
  'apps',
  'deploy',
  'docs',
  'e2e',
  'eslint.config.js',
  'package-lock.json',
  'package.json',
  'packages',
  'scripts',
  'tsconfig.base.json',
  'tsconfig.json',
] as const;

// Folder names skipped at any depth: installed packages, build and test output, caches, and the default
// data folder name in case a DATA_DIR was pointed inside the tree (the configured one is skipped too).
const SKIPPED_DIRS = new Set([
  '.git',
  '.cache',
  'node_modules',
  'dist',
  'coverage',
  'artifacts',
  'data',
  'tmp',
  'temp',
]);

// Files that may hold secrets or user data even inside an allowed folder. .npmrc is left out too: a
// deployment may add a registry token to it; the tracked one only skips an install script.
const SKIPPED_FILES = [
  /^\.env(\..*)?$/i,
  /\.env$/i,
  /^\.npmrc$/i,
  /^\.netrc$/i,
  /^\.pgpass$/i,
  /\.(sql|dump|bak|backup)(\.gz)?$/i,
  /^secrets?(\..*)?$/i,
  /\.(sqlite3?|db)(-wal|-shm|-journal)?$/i,
  /\.(pem|key|p12|pfx|crt|jks|keystore)$/i,
  /^id_(rsa|dsa|ecdsa|ed25519)/i,
  /\.log$/i,
  /\.tsbuildinfo$/i,
  /^\.DS_Store$/,
];

export function isSkippedFile(name: string): boolean {
  return SKIPPED_FILES.some((re) => re.test(name));
}

/**
 * The files to pack, relative to `root` with `/` separators, sorted. Only regular files: symbolic links
 * are neither followed nor stored. `excludeDirs` (absolute, e.g. DATA_DIR) are skipped wherever they sit.
 */
export async function listSourceFiles(root: string, excludeDirs: readonly string[] = []): Promise<string[]> {
  const excluded = new Set<string>();
  for (const dir of excludeDirs) {
    excluded.add(resolve(dir));
    excluded.add(await realpath(dir).catch(() => resolve(dir)));
  }
  const files: string[] = [];
  const walk = async (relDir: string): Promise<void> => {
    const abs = join(root, relDir);
    if (excluded.has(abs) || excluded.has(await realpath(abs).catch(() => abs))) return;
    const entries = await readdir(abs, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const rel = `${relDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) await walk(rel);
      } else if (entry.isFile() && !isSkippedFile(entry.name)) {
        files.push(rel);
      }
    }
  };
  const rootEntries = await readdir(root, { withFileTypes: true });
  for (const top of SOURCE_TOP_LEVEL) {
    const entry = rootEntries.find((e) => e.name === top);
    if (!entry) continue;
    if (entry.isDirectory()) await walk(top);
    else if (entry.isFile()) files.push(top);
  }
  return files.map((f) => f.split(sep).join('/')).sort();
}

/** Tracked files of the git work tree whose top is `root`, or null when `root` is not one (or git is missing). */
export async function gitTrackedFiles(root: string): Promise<string[] | null> {
  const git = (args: string[]) =>
    new Promise<string | null>((done) =>
      execFile('git', ['-C', root, ...args], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout) =>
        done(err ? null : stdout),
      ),
    );
  const top = await git(['rev-parse', '--show-toplevel']);
  if (top === null) return null;
  // a tree unpacked inside some other repository is not that repository's to describe
  const [a, b] = await Promise.all([realpath(top.trim()).catch(() => top.trim()), realpath(root)]);
  if (a !== b) return null;
  const listed = await git(['ls-files', '-z', '--cached']);
  return listed === null ? null : listed.split('\0').filter(Boolean);
}

export interface SourceFileList {
  files: string[];
  /** git: the tracked files; walk: the fallback for a tree without git */
  origin: 'git' | 'walk';
}

/**
 * The files to pack: git's tracked files that are regular files now (not deleted, not links), minus
 * `excludeDirs` and secret-looking names; the allow-list walk when `root` is no git work tree.
 */
export async function sourceFiles(
  root: string,
  excludeDirs: readonly string[] = [],
): Promise<SourceFileList> {
  const tracked = await gitTrackedFiles(root);
  if (!tracked) return { files: await listSourceFiles(root, excludeDirs), origin: 'walk' };
  const excluded = await Promise.all(
    excludeDirs.map(async (d) => [resolve(d), await realpath(d).catch(() => resolve(d))]),
  );
  const under = (abs: string) => excluded.flat().some((d) => abs === d || abs.startsWith(d + sep));
  const files: string[] = [];
  for (const rel of tracked) {
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    if (isSkippedFile(name)) continue;
    const abs = join(root, rel);
    if (under(abs)) continue;
    const info = await lstat(abs).catch(() => null);
    if (info?.isFile()) files.push(rel);
  }
  return { files: files.sort(), origin: 'git' };
}

export class SourceArchiveError extends Error {}

// An early tar failure (bad directory, unreadable list) shows within the first bytes; holding them back
// turns it into a clean error answer instead of a download cut short.
const HOLD_BYTES = 64 * 1024;

/**
 * Streams `files` (relative to `root`) as a gzipped tar under `prefix/`, through the system tar. Resolves
 * once tar has produced its first 64 KiB (or finished), so a missing or failing tar rejects (the route
 * answers a 500) instead of starting a download that breaks. A failure after that destroys the stream, so the client
 * sees a cut transfer, never a short archive that looks whole.
 */
export async function streamSourceArchive(
  root: string,
  files: readonly string[],
  prefix: string,
): Promise<Readable> {
  const child = spawn(
    'tar',
    [
      '--create',
      '--gzip',
      '--file=-',
      `--directory=${root}`,
      '--no-recursion',
      '--null',
      '--verbatim-files-from',
      '--files-from=-',
      // a file another process deletes between listing and packing is skipped, not fatal
      '--ignore-failed-read',
      '--warning=no-file-changed',
      '--owner=0',
      '--group=0',
      '--numeric-owner',
      `--transform=s,^,${prefix}/,`,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString('utf8');
  });
  // tar that dies before reading the list breaks the pipe; its exit status says why
  child.stdin.on('error', () => {});
  child.stdin.end(files.map((f) => `${f}\0`).join(''));
  const closed = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  // GNU tar: 1 = a file changed while it was read; the archive is still complete and valid
  const failure = (code: number | null) =>
    code === 0 || code === 1 ? null : new SourceArchiveError(`tar exited with ${code}: ${stderr.trim()}`);

  // Hold the first bytes back until there are enough to be sure tar got going (or it has finished).
  const head: Buffer[] = [];
  const done = await new Promise<boolean>((ok, fail) => {
    let held = 0;
    const onData = (chunk: Buffer) => {
      head.push(chunk);
      held += chunk.length;
      if (held < HOLD_BYTES) return;
      child.stdout.pause();
      settle();
      ok(false);
    };
    const onError = (err: Error) => {
      settle();
      fail(new SourceArchiveError(`tar could not run: ${err.message}`));
    };
    const onClose = (code: number | null) => {
      settle();
      const err = failure(code) ?? (held === 0 ? new SourceArchiveError('tar produced no output') : null);
      if (err) fail(err);
      else ok(true);
    };
    const settle = () => {
      child.stdout.off('data', onData);
      child.off('error', onError);
      child.off('close', onClose);
    };
    child.stdout.on('data', onData);
    child.once('error', onError);
    child.once('close', onClose);
  });

  const out = new PassThrough();
  for (const chunk of head) out.write(chunk);
  if (done) {
    out.end();
    return out;
  }
  child.stdout.pipe(out, { end: false });
  void closed.then((code) => {
    const err = failure(code);
    if (err) out.destroy(err);
    else out.end();
  });
  // the client went away: stop packing
  out.once('close', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  return out;
}
