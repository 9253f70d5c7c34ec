#!/usr/bin/env node
// `npm run build`: everything a deployment runs, built once at install so that starting a process writes
// nothing into the tree (a systemd unit's ProtectSystem=strict makes it read-only): the web app (vite)
// with brotli and gzip copies of its assets, the server's bundles (apps/server/dist: server, worker,
// admin, engine-thread), the `tazamun` CLI's (packages/aligner/dist) and, where there is a C compiler,
// the engine's native Gaussian kernel (packages/aligner/native/build). `npm start` calls the same
// functions when a build is missing or older than its sources.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { server } from '../apps/server/scripts/build-server.mjs';
import { cli } from '../packages/aligner/scripts/build-cli.mjs';
import { buildNative } from '../packages/aligner/native/build.mjs';
import { precompress } from './precompress.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIST = join(root, 'apps/web/dist');

/**
 * The web app and its compressed copies. The tools' output goes to `stdio` (a server that builds at
 * start sends it to stderr, keeping stdout for its JSON log lines). Resolves with the compression
 * report, or null when vite failed.
 */
export async function buildWeb(stdio = 'inherit') {
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio });
  if (r.status !== 0) return null;
  return precompress(WEB_DIST);
}

export { server, cli, buildNative };

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const web = await buildWeb();
  if (!web) {
    console.error('[tazamun] the web build failed');
    process.exit(1);
  }
  const { files, before, after } = web;
  console.log(
    `web app built: ${files} assets, ${Math.round(before / 1024)} KB, ${Math.round(after / 1024)} KB with brotli`,
  );
  await server.build();
  console.log(`server built: ${server.dist}`);
  await cli.build();
  console.log(`tazamun CLI built: ${cli.dist}`);
  const native = buildNative();
  console.log(
    native.ok
      ? 'native Gaussian kernel built'
      : `native Gaussian kernel not built (${native.reason}): the engine uses onnxruntime and JavaScript, about 1.5 times the CPU a job`,
  );
}
