// Public entry `@tazamun/aligner/cli`: the `tazamun` command line as a function (the bin runs it too).
export { runCli, usage } from '../cli/run-cli.ts';
