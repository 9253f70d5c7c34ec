#!/usr/bin/env node
// Runs the TypeScript CLI under tsx so the package needs no build step.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const main = join(dirname(fileURLToPath(import.meta.url)), '../src/cli/main.ts');
const child = spawn(
  process.execPath,
  ['--import', import.meta.resolve('tsx'), main, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
