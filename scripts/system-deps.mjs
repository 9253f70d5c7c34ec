// What the test suites need from Debian, installed when absent (as root) or reported loudly.
// Each entry: the command that proves the package is there, and the Debian package that provides it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const SYSTEM_DEPS = [
  { probe: '/usr/bin/chromium', pkg: 'chromium', why: 'end-to-end tests drive Debian Chromium' },
  {
    probe: '/usr/bin/ffmpeg',
    pkg: 'ffmpeg',
    why: 'media decoding and MP4 rendering (libass + HarfBuzz shaping)',
  },
  {
    probe: '/usr/share/pocketsphinx/model/en-us/en-us/mdef',
    pkg: 'pocketsphinx-en-us',
    why: "the aligner's 16 kHz English acoustic model (the engine falls back to soundswallower's 8 kHz one without it)",
  },
  {
    probe: '/usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf',
    pkg: 'fonts-noto-core',
    why: 'Arabic glyphs in videos and screenshots',
  },
  {
    // Debian installs the server under a versioned directory (15 on bookworm); any version will do.
    probe: '/usr/lib/postgresql/*/bin/postgres',
    pkg: 'postgresql',
    why: 'the server integration suite runs a second time on a real PostgreSQL server',
  },
  {
    probe: '/usr/bin/redis-server',
    pkg: 'redis-server',
    why: 'the job signals over Redis (REDIS_URL) and the scaled-out shape are tested on a real Redis',
  },
  {
    probe: '/usr/bin/gcc',
    pkg: 'gcc',
    why: "the engine's native Gaussian kernel (packages/aligner/native/gmm.c) is compiled at install and tested",
  },
  {
    probe: '/usr/include/stdlib.h',
    pkg: 'libc6-dev',
    why: "the C library's headers, for the native Gaussian kernel",
  },
  {
    probe: '/usr/bin/curl',
    pkg: 'curl',
    why: "the deploy guide's own commands (step 7 checks readiness with curl) run in reliability/deploy-guide.test.ts",
  },
  {
    probe: '/usr/bin/openssl',
    pkg: 'openssl',
    why: 'the deploy guide test makes the secrets of its env file as the guide says, with openssl rand',
  },
];

/** existsSync with one `*` path segment allowed (versioned directories). */
function present(probe) {
  const star = probe.split('/').indexOf('*');
  if (star < 0) return existsSync(probe);
  const parts = probe.split('/');
  const parent = parts.slice(0, star).join('/') || '/';
  if (!existsSync(parent)) return false;
  return readdirSync(parent).some((name) => existsSync(join(parent, name, ...parts.slice(star + 1))));
}

function run(cmd, args) {
  return spawnSync(cmd, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** Installs missing packages when running as root; returns the list still missing afterwards. */
export function ensureSystemDeps(deps = SYSTEM_DEPS) {
  const missing = deps.filter((d) => !present(d.probe));
  if (missing.length === 0) return [];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot) {
    console.log(`[system-deps] installing from Debian: ${missing.map((d) => d.pkg).join(', ')}`);
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing.map((d) => d.pkg)]);
  }
  return deps.filter((d) => !present(d.probe));
}
