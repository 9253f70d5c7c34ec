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
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

const hex4 = (n) => n.toString(16).padStart(4, '0');

/** A chunk no build has written for this long belongs to no build still running (ten minutes). */
const STALE_CHUNK_MS = 10 * 60 * 1000;

/**
 * The bundle's text in ASCII: every other character as its \u escape (a surrogate pair for one outside
 * the basic plane), which means the same in strings, regular expressions, identifiers and comments.
 * esbuild escapes strings but leaves comments and regular expressions as written (pinyin-pro's Chinese,
 * IPA in this repository's comments), and one such character made node decode the whole 3 MB file into a
 * two-byte string in every thread that loads it: 42 ms of CPU and 8 MiB a process on a one-file job. An
 * identity escape (`\é`) becomes the escape of the character alone. A template literal's raw text is
 * the one thing that reads differently; no bundled code reads non-ASCII raw text.
 */
export function asciiOnly(text) {
  return text.replace(/(\\*)([\u0080-\u{10ffff}])/gu, (_, slashes, ch) => {
    const cp = ch.codePointAt(0);
    const esc =
      cp < 0x10000
        ? `\\u${hex4(cp)}`
        : `\\u${hex4(0xd800 + ((cp - 0x10000) >> 10))}\\u${hex4(0xdc00 + ((cp - 0x10000) & 0x3ff))}`;
    return (slashes.length % 2 === 1 ? slashes.slice(1) : slashes) + esc;
  });
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
 * `selfContained` entries carry their npm dependencies inside the bundle too, except `keepExternal`
 * (native addons, packages that find files beside themselves, optional back ends loaded on demand):
 * a short-lived command (the admin CLI) then resolves a handful of modules instead of hundreds. With
 * `split`, code the self-contained entries share goes to `chunk-*.mjs` files beside them, and a dynamic
 * import() stays one (its module is loaded when it runs, not parsed with the entry's bundle).
 */
export function program({
  dist,
  entries,
  selfContained = {},
  keepExternal = [],
  split = false,
  sources,
  packages,
  copy = [],
}) {
  const all = { ...entries, ...selfContained };
  const outputs = [...Object.keys(all).map((e) => `${e}.mjs`), ...copy.map((c) => basename(c))];
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
      const started = Date.now();
      const { build } = await import('esbuild');
      mkdirSync(dist, { recursive: true });
      const tmp = mkdtempSync(join(dist, '.build-'));
      const common = {
        outdir: tmp,
        outExtension: { '.js': '.mjs' },
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        sourcemap: 'linked',
        logLevel: 'error',
      };
      try {
        if (Object.keys(entries).length > 0)
          await build({
            ...common,
            entryPoints: entries,
            external: [...new Set(packages.flatMap(dependencies)), 'tsx', 'esbuild'],
          });
        if (Object.keys(selfContained).length > 0)
          await build({
            ...common,
            entryPoints: selfContained,
            external: [...keepExternal, 'tsx', 'esbuild'],
            ...(split ? { splitting: true, chunkNames: 'chunk-[hash]' } : {}),
            // CommonJS packages inside an ES module bundle call require() for node's own modules
            banner: {
              js: "import { createRequire as __tazamunRequire } from 'node:module'; const require = __tazamunRequire(import.meta.url);",
            },
          });
        for (const name of readdirSync(tmp).filter((n) => n.endsWith('.mjs'))) {
          const text = readFileSync(join(tmp, name), 'utf8');
          const ascii = asciiOnly(text);
          if (ascii !== text) writeFileSync(join(tmp, name), ascii);
        }
        for (const file of copy) copyFileSync(file, join(tmp, basename(file)));
        const built = new Set(readdirSync(tmp));
        for (const name of built) renameSync(join(tmp, name), join(dist, name));
        // chunks of earlier builds that this one did not write (their names are hashes of their contents),
        // once they are old enough not to belong to another build running at the same time
        for (const name of readdirSync(dist))
          if (
            name.startsWith('chunk-') &&
            !built.has(name) &&
            statSync(join(dist, name)).mtimeMs < started - STALE_CHUNK_MS
          )
            rmSync(join(dist, name), { force: true });
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    },
  };
}
