#!/usr/bin/env node
// `npm run admin -- <command>`: the operator's CLI (apps/server/src/cli/admin.ts) as compiled JavaScript,
// run in this process: apps/server/dist/admin.mjs, built here first when it is missing or older than the
// sources (scripts/build-node.mjs; `npm run build` makes it at install). Where it cannot be built (a
// read-only checkout without a fresh dist/), the TypeScript sources run under tsx, as before, slower.
// TAZAMUN_ADMIN_SOURCES=1 forces the sources.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { server } from '../apps/server/scripts/build-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

async function compiled() {
  if (process.env.TAZAMUN_ADMIN_SOURCES === '1') return null;
  if (server.isFresh()) return server.entry('admin');
  try {
    await server.build();
    return server.entry('admin');
  } catch (err) {
    process.stderr.write(
      `[tazamun admin] running the sources (the CLI could not be compiled: ${err.message})\n`,
    );
    return null;
  }
}

const entry = await compiled();
if (entry) {
  await import(pathToFileURL(entry).href);
} else {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'apps/server/src/cli/admin.ts'), ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
