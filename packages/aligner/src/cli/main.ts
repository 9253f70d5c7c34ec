// The `tazamun` program: runs the command line (run-cli.ts) and exits with its code.
import { argv, exit, stderr } from 'node:process';
import { runCli } from './run-cli.ts';

runCli(argv.slice(2)).then(
  (code) => exit(code),
  (err: unknown) => {
    stderr.write(`tazamun: ${err instanceof Error ? err.message : String(err)}\n`);
    exit(1);
  },
);
