#!/usr/bin/env node
// Compiles the engine's native module (a Node-API module: the Gaussian kernel, gmm.c, and the front end's
// spectra, frontend.c) with the machine's C compiler into native/build/. It is an optional upgrade:
// without a compiler or Node's headers the engine scores Gaussians with onnxruntime (about three times
// the CPU) and computes spectra in JavaScript, and this script says so and exits 0, unless `--required`
// is given. Run by `npm install` (the root package's postinstall), `npm start`, `npm test`
// and `npm run bench`; it does nothing when the module is newer than its sources. Written to a temporary
// name and renamed, so a process never loads a half-written module.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The module's path; src/native/addon.ts looks for it under this name (native/build/tazamun-native.node). */
export const ADDON = join(here, 'build', 'tazamun-native.node');
const C_FILES = ['module.c', 'gmm.c', 'frontend.c', 'search.c', 'adapt.c'].map((f) => join(here, f));
const SOURCES = [...C_FILES, join(here, 'napi-util.h'), fileURLToPath(import.meta.url)];

/** The folder holding node_api.h for the running node, or null. */
function nodeHeaders() {
  const prefix = process.config?.variables?.node_prefix;
  const candidates = [
    join(dirname(process.execPath), '..', 'include', 'node'),
    prefix ? join(prefix, 'include', 'node') : null,
    '/usr/include/node',
    '/usr/local/include/node',
  ];
  return candidates.find((d) => d && existsSync(join(d, 'node_api.h'))) ?? null;
}

function stale() {
  if (!existsSync(ADDON)) return true;
  const built = statSync(ADDON).mtimeMs;
  return SOURCES.some((s) => statSync(s).mtimeMs > built);
}

/**
 * Builds the module when it is missing or older than its sources: { ok, built, reason } (reason: why it
 * could not be built, with the compiler's own message).
 */
export function buildNative() {
  try {
    return build();
  } catch (err) {
    // a read-only checkout, a full disk: the engine runs without the module
    return { ok: false, built: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

function build() {
  if (!stale()) return { ok: true, built: false, reason: null };
  const headers = nodeHeaders();
  if (!headers) return { ok: false, built: false, reason: "Node's C headers (node_api.h) were not found" };
  const cc = process.env.CC || 'cc';
  mkdirSync(dirname(ADDON), { recursive: true });
  const tmp = `${ADDON}.${process.pid}.tmp`;
  // -ffp-contract=off: no multiply-add is fused unless the source asks, so the vector and the scalar
  // paths of gmm.c give the same bits, and frontend.c the JavaScript's; only the module's entry point is
  // exported
  const args = [
    '-O3',
    '-ffp-contract=off',
    '-fvisibility=hidden',
    '-fPIC',
    '-shared',
    `-I${headers}`,
    '-o',
    tmp,
    ...C_FILES,
    '-lm',
  ];
  const res = spawnSync(cc, args, { encoding: 'utf8' });
  if (res.error || res.status !== 0) {
    rmSync(tmp, { force: true });
    const why = res.error ? res.error.message : (res.stderr || `exit ${res.status}`).trim();
    return { ok: false, built: false, reason: `${cc} failed: ${why}` };
  }
  renameSync(tmp, ADDON);
  return { ok: true, built: true, reason: null };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const required = process.argv.includes('--required');
  const r = buildNative();
  if (r.built) console.error(`[native] built ${ADDON}`);
  if (!r.ok) {
    console.error(`[native] the engine's native module was not built (${r.reason}).`);
    console.error(
      '[native] the engine will use onnxruntime and JavaScript instead: the same results, more CPU.',
    );
    if (required) process.exit(1);
  }
}
