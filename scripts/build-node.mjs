// Compiles a Node program of this repository (the CLI, the server) to JavaScript bundles in its package's
// dist/, so it starts without compiling TypeScript at run time. The project's own sources are bundled;
// every npm dependency of the packages involved stays an import resolved from node_modules. Written to a
// temporary folder first and renamed into place file by file, so nothing ever runs a half-written file,
// and two builds at once each leave a whole build. One mechanism for both programs (docs/decisions/0034).
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, join } from 'node:path';

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function dependencies(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  // the workspace's own packages are sources to bundle, not dependencies
  return Object.keys(pkg.dependencies ?? {}).filter((d) => !d.startsWith('@tazamun/'));
}

/**
 * A program: `dist` receives `<entry>.mjs` for every entry (name -> source file), built from `sources`
 * (folders and files whose change makes the build stale), with the npm dependencies of `packages`
 * (package folders) left external; `copy` files are put beside the bundles (data read at run time).
 */
export function program({ dist, entries, sources, packages, copy = [] }) {
  const outputs = [...Object.keys(entries).map((e) => `${e}.mjs`), ...copy.map((c) => basename(c))];
  return {
    dist,
    entry: (name) => join(dist, `${name}.mjs`),
    /** dist/ holds a build of the current sources */
    isFresh() {
      if (!outputs.every((o) => existsSync(join(dist, o)))) return false;
      const at = Math.min(...outputs.map((o) => statSync(join(dist, o)).mtimeMs));
      return sources.every((s) => !existsSync(s) || newestMtime(s) <= at);
    },
    async build() {
      const { build } = await import('esbuild');
      mkdirSync(dist, { recursive: true });
      const tmp = mkdtempSync(join(dist, '.build-'));
      try {
        await build({
          entryPoints: entries,
          outdir: tmp,
          outExtension: { '.js': '.mjs' },
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: 'node20',
          sourcemap: 'linked',
          logLevel: 'error',
          external: [...new Set(packages.flatMap(dependencies)), 'tsx', 'esbuild'],
        });
        for (const file of copy) copyFileSync(file, join(tmp, basename(file)));
        for (const name of readdirSync(tmp)) renameSync(join(tmp, name), join(dist, name));
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    },
  };
}
