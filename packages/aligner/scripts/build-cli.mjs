// Compiles the CLI (and its batch worker thread) to two JavaScript files in dist/, so `tazamun` starts
// without compiling TypeScript at run time. The project's own sources (this package and
// @tazamun/contracts) are bundled; every npm dependency stays an import resolved from node_modules.
// Written to a temporary folder first and renamed into place file by file, so no CLI ever runs a
// half-written file. Used by bin/tazamun.mjs when dist/ is missing or older than the sources.
import {
  mkdirSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(PACKAGE_DIR, 'dist');
const SOURCES = [
  join(PACKAGE_DIR, 'src'),
  join(PACKAGE_DIR, '../contracts/src'),
  join(PACKAGE_DIR, 'package.json'),
];

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** dist/ holds a build of the current sources. */
export function isFresh() {
  const built = join(DIST, 'main.mjs');
  if (!existsSync(built) || !existsSync(join(DIST, 'align-worker.mjs'))) return false;
  const at = statSync(built).mtimeMs;
  return SOURCES.every((s) => !existsSync(s) || newestMtime(s) <= at);
}

function dependencies(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return Object.keys(pkg.dependencies ?? {});
}

export async function buildCli() {
  const { build } = await import('esbuild');
  const tmp = mkdtempSync(join(PACKAGE_DIR, '.dist-'));
  try {
    await build({
      entryPoints: {
        main: join(PACKAGE_DIR, 'src/cli/main.ts'),
        'align-worker': join(PACKAGE_DIR, 'src/cli/align-worker.ts'),
      },
      outdir: tmp,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'linked',
      logLevel: 'error',
      external: [
        ...dependencies(PACKAGE_DIR),
        ...dependencies(join(PACKAGE_DIR, '../contracts')),
        'tsx',
        'esbuild',
      ],
    });
    // File by file, each renamed over the old one (atomic): a CLI already running from dist/ never
    // finds its worker file missing, and two CLIs building at once each leave a whole build.
    mkdirSync(DIST, { recursive: true });
    for (const name of readdirSync(tmp)) renameSync(join(tmp, name), join(DIST, name));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  await buildCli();
  console.log(`built ${DIST}`);
}
