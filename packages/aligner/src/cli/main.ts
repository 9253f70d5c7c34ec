// The `tazamun` program: runs the command line (run-cli.ts) and exits with its code.
import { argv, exit, stderr, stdout } from 'node:process';
import { runCli } from './run-cli.ts';

/**
 * Exits once what was written to stdout and stderr has gone out. A pipe takes 64 KB at a time and Node
 * queues the rest, which exit() drops: `tazamun align … | jq` got the first 64 KB of a longer result.
 * (exit() itself is still needed: the engine's threads would keep the process alive.)
 */
function exitWhenWritten(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) exit(code);
  };
  // the callback also runs when the stream failed (a reader that went away: `| head`)
  stdout.write('', done);
  stderr.write('', done);
}

runCli(argv.slice(2)).then(exitWhenWritten, (err: unknown) => {
  stderr.write(`tazamun: ${err instanceof Error ? err.message : String(err)}\n`);
  exitWhenWritten(1);
});
