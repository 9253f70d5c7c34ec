// The CLI (and the engine host's thread its batches run on) compiled to dist/main.mjs and
// dist/engine-thread.mjs with the repository's one bundler (scripts/build-node.mjs). Used by bin/tazamun.mjs when dist/ is missing or
// older than the sources.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { program } from '../../../scripts/build-node.mjs';

export const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(PACKAGE_DIR, 'dist');

/**
 * The engine's packages that stay imports when a bundle carries its dependencies: native addons and
 * packages that find their files beside themselves. Every self-contained bundle holding the engine lists
 * them (this CLI, the server's admin CLI).
 */
export const ENGINE_EXTERNAL = [
  'onnxruntime-node',
  'soundswallower',
  '@echogarden/*',
  '@ffmpeg-installer/*',
  '@ffprobe-installer/*',
];

export const cli = program({
  dist: DIST,
  // A command starts, aligns and exits, and each of its threads loads its own modules: their
  // pure-JavaScript dependencies travel inside the bundles, so that a thread reads three files instead of
  // resolving and compiling a few hundred (zod alone is 0.18 s of CPU a thread as separate modules).
  entries: {},
  selfContained: {
    main: join(PACKAGE_DIR, 'src/cli/main.ts'),
    // the engine host's thread (host/start-thread.ts starts it from beside the bundle)
    'engine-thread': join(PACKAGE_DIR, 'src/host/engine-thread.ts'),
    // the engine's piece threads for one long recording (align/window-pool.ts), started beside the bundle
    'window-worker': join(PACKAGE_DIR, 'src/align/window-worker.ts'),
  },
  keepExternal: ENGINE_EXTERNAL,
  // a thread parses only the code its entry reaches: the CLI's main thread leaves the engine to its
  // thread, and the engine's thread loads pinyin-pro and the like only when a job asks for them
  split: true,
  sources: [
    join(PACKAGE_DIR, 'src'),
    join(PACKAGE_DIR, '../contracts/src'),
    join(PACKAGE_DIR, 'package.json'),
  ],
  packages: [PACKAGE_DIR, join(PACKAGE_DIR, '../contracts')],
});

export const isFresh = () => cli.isFresh();
export const buildCli = () => cli.build();

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  await buildCli();
  console.log(`built ${DIST}`);
}
