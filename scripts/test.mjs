#!/usr/bin/env node
// `npm test`: installs what the suites need, runs `npm run check`, then every suite in turn. A missing
// dependency fails the run loudly; nothing is skipped. The last line sums up the test counts of all suites.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSystemDeps } from './system-deps.mjs';
import { buildNative } from '../packages/aligner/native/build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv.slice(2);

const SUITES = [
  { name: 'check', cmd: 'npm', args: ['run', 'check'] },
  { name: 'contracts', cmd: 'npm', args: ['test', '-w', 'packages/contracts'] },
  { name: 'aligner', cmd: 'npm', args: ['test', '-w', 'packages/aligner'] },
  { name: 'server', cmd: 'npm', args: ['test', '-w', 'apps/server'] },
  // The same server suite again, every test app on its own schema of a real PostgreSQL cluster.
  {
    name: 'server-postgres',
    cmd: process.execPath,
    args: [
      '--import',
      'tsx',
      'apps/server/test-support/with-postgres.ts',
      '--',
      'npm',
      'test',
      '-w',
      'apps/server',
    ],
  },
  { name: 'web', cmd: 'npm', args: ['test', '-w', 'apps/web'] },
  { name: 'e2e', cmd: 'npm', args: ['test', '-w', 'e2e'] },
];

function runSuite(suite) {
  return new Promise((resolve) => {
    const child = spawn(suite.cmd, suite.args, { cwd: root, env: process.env });
    let out = '';
    const collect = (chunk, stream) => {
      out += chunk.toString();
      stream.write(chunk);
    };
    child.stdout.on('data', (c) => collect(c, process.stdout));
    child.stderr.on('data', (c) => collect(c, process.stderr));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

/** Reads pass/fail counts from node:test (spec or TAP reporter) and Vitest summaries. */
function counts(raw) {
  // Vitest colours its summary even when piped: drop ANSI escapes before reading numbers.
  // eslint-disable-next-line no-control-regex
  const out = raw.replace(/\x1b\[[0-9;]*m/g, '');
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const m of out.matchAll(/^[#ℹ] pass (\d+)$/gm)) passed += Number(m[1]);
  for (const m of out.matchAll(/^[#ℹ] fail (\d+)$/gm)) failed += Number(m[1]);
  for (const m of out.matchAll(/^[#ℹ] (?:skipped|todo) (\d+)$/gm)) skipped += Number(m[1]);
  for (const m of out.matchAll(/^\s*Tests\s+(.*)$/gm)) {
    const p = /(\d+) passed/.exec(m[1]);
    const f = /(\d+) failed/.exec(m[1]);
    const s = /(\d+) (?:skipped|todo)/.exec(m[1]);
    if (p) passed += Number(p[1]);
    if (f) failed += Number(f[1]);
    if (s) skipped += Number(s[1]);
  }
  // which tests were skipped and why (node:test's TAP line "ok N - name # SKIP reason")
  const why = [...out.matchAll(/^\s*ok \d+ - (.*) # (?:SKIP|TODO)\b ?(.*)$/gm)].map(
    (m) => `${m[1]}: ${m[2] || 'no reason given'}`,
  );
  return { passed, failed, skipped, why };
}

const stillMissing = ensureSystemDeps();
if (stillMissing.length > 0) {
  for (const d of stillMissing) console.error(`[test] MISSING ${d.pkg} (${d.probe}): ${d.why}`);
  console.error('[test] install the packages above (apt-get install ...) or run as root; refusing to skip.');
  process.exit(1);
}
// the native Gaussian kernel is what the engine runs where a compiler exists, and its tests need it
const native = buildNative();
if (!native.ok) {
  console.error(`[test] the native Gaussian kernel could not be built: ${native.reason}; refusing to skip.`);
  process.exit(1);
}

let passed = 0;
let failed = 0;
let skipped = 0;
const skips = [];
const broken = [];
for (const suite of SUITES) {
  if (only.length > 0 && !only.includes(suite.name)) continue;
  console.log(`\n[test] ==== ${suite.name} ====`);
  const { code, out } = await runSuite(suite);
  const c = counts(out);
  passed += c.passed;
  failed += c.failed;
  skipped += c.skipped;
  for (const w of c.why) skips.push(`${suite.name}: ${w}`);
  if (code !== 0) broken.push(suite.name);
  if (code !== 0 && c.failed === 0) failed += 1; // a suite that crashed counts as a failure
}
// A skip is never silent: the server's tests that need one database skip in the other database's pass and
// run in their own; every skip is listed here with its reason.
if (skips.length) console.log(`\n[test] skipped tests:\n${skips.map((s) => `  ${s}`).join('\n')}`);
console.log(`\n[test] suites failing: ${broken.length ? broken.join(', ') : 'none'}`);
console.log(`[test] skipped: ${skipped} (node:test's listed above with their reasons; Vitest names none)`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(broken.length ? 1 : 0);
