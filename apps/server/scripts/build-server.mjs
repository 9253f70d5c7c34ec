// The server compiled to JavaScript: dist/server.mjs (API + web + worker threads), dist/worker.mjs (the
// worker role), dist/admin.mjs (the operator's CLI), dist/engine-thread.mjs (the engine host's thread,
// which the host starts from beside the bundle that runs it: packages/aligner/src/host/start-thread.ts),
// dist/transcript-thread.mjs (the thread reading batch transcripts, started the same way) and
// dist/window-worker.mjs (the engine's piece thread for long recordings), with the repository's one
// bundler (scripts/build-node.mjs).
// `npm start` builds it when stale; the TypeScript sources under tsx
// remain the fallback.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { program } from '../../../scripts/build-node.mjs';
import { ENGINE_EXTERNAL } from '../../../packages/aligner/scripts/build-cli.mjs';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), '..');
const ALIGNER = join(SERVER, '../../packages/aligner');
const CONTRACTS = join(SERVER, '../../packages/contracts');

export const server = program({
  dist: join(SERVER, 'dist'),
  entries: {
    server: join(SERVER, 'src/server.ts'),
    worker: join(SERVER, 'src/worker.ts'),
    'engine-thread': join(ALIGNER, 'src/host/engine-thread.ts'),
    // the engine's piece threads for one long recording (align/window-pool.ts), started beside the bundle
    'window-worker': join(ALIGNER, 'src/align/window-worker.ts'),
    'transcript-thread': join(SERVER, 'src/corpus/transcript-thread.ts'),
  },
  // `npm run admin` starts, answers and exits: its pure-JavaScript dependencies travel in its bundle
  // (0.47 s -> 0.23 s for `list`); these stay imports
  selfContained: { admin: join(SERVER, 'src/cli/admin.ts') },
  keepExternal: [
    'better-sqlite3',
    '@node-rs/argon2',
    'sharp',
    'pg-native',
    'bullmq',
    'ioredis',
    '@aws-sdk/*',
    ...ENGINE_EXTERNAL,
  ],
  sources: [
    join(SERVER, 'src'),
    join(SERVER, 'package.json'),
    join(ALIGNER, 'src'),
    join(ALIGNER, 'package.json'),
    join(CONTRACTS, 'src'),
  ],
  packages: [SERVER, ALIGNER, CONTRACTS],
  // read beside the module at run time (demos/seed-demos.ts)
  copy: [join(SERVER, 'src/demos/default-demos.json')],
});

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  await server.build();
  console.log(`built ${server.dist}`);
}
