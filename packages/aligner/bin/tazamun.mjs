#!/usr/bin/env node
// Runs the CLI compiled to JavaScript (dist/, built here from the sources when missing or older than
// them: scripts/build-cli.mjs), in this process. Where it cannot be built (no esbuild, a read-only
// checkout without dist/), it runs the TypeScript sources under tsx in a child process as before.
// TAZAMUN_CLI_SOURCES=1 forces the sources.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

async function compiled() {
  if (process.env.TAZAMUN_CLI_SOURCES === '1') return null;
  try {
    const { DIST, buildCli, isFresh } = await import('../scripts/build-cli.mjs');
    if (!isFresh()) await buildCli();
    return join(DIST, 'main.mjs');
  } catch (err) {
    process.stderr.write(
      `tazamun: running from the sources (the CLI could not be compiled: ${err.message})\n`,
    );
    return null;
  }
}

const main = await compiled();
if (main) {
  await import(pathToFileURL(main).href);
} else {
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), join(here, '../src/cli/main.ts'), ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
