#!/usr/bin/env node
// Node 20's test runner takes no globs: find the *.test.ts files under the given folders (a given
// *.test.ts file is taken as it is) and run them with tsx. Extra flags (e.g. --test-concurrency=1) are
// passed through. Fails when no test file is found.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const dirs = process.argv.slice(2).filter((a) => !a.startsWith('--'));

function find(dir) {
  if (!statSync(dir).isDirectory()) return /\.test\.tsx?$/.test(dir) ? [dir] : [];
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...find(p));
    else if (/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

const files = dirs.flatMap(find).sort();
if (files.length === 0) {
  console.error(`no *.test.ts files under ${dirs.join(', ')}`);
  process.exit(1);
}
const child = spawn(process.execPath, ['--import', 'tsx', '--test', ...flags, ...files], {
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
