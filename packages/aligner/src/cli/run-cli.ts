// `tazamun <command>`: a dispatcher; each command lives in its own module and is loaded on demand so
// `tazamun languages` does not load acoustic models. main.ts runs it as the program; other programs run
// it through the public entry `@tazamun/aligner/cli`.
import { stderr } from 'node:process';

const COMMANDS: Record<
  string,
  { summary: string; load: () => Promise<{ run: (args: string[]) => Promise<number> }> }
> = {
  align: {
    summary: 'align audio with its transcript (or a batch manifest)',
    load: () => import('./align.ts'),
  },
  adapt: {
    summary: 'adapt the acoustic model to a corpus (MAP); Arabic gains phones of its own',
    load: () => import('./adapt.ts'),
  },
  export: {
    summary: 'write an export (read-along page, EPUB, TextGrid, …) of a result JSON, e.g. a revision',
    load: async () => ({ run: (await import('./align.ts')).runExport }),
  },
  languages: {
    summary: 'list the supported languages, their codes and routes',
    load: () => import('./languages.ts'),
  },
  models: {
    summary: 'list or pull acoustic models',
    load: () => import('./models.ts' as string) as Promise<{ run: (args: string[]) => Promise<number> }>,
  },
};

export function usage(): string {
  return [
    'usage: tazamun <command> [options]',
    '',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`),
    '',
    'tazamun align AUDIO TEXT_FILE --lang CODE [--format json|textgrid|vtt|srt|csv|eaf|readalong|epub]',
    '              [-o OUT] [--title TITLE]',
    '              [--precision standard|high|ultra] [--ipa] [--engine auto|hmm|mms]',
    '              [--no-normalize] [--no-numbers] [--remove-fillers] [--no-recognition]',
    '              [--threads N]  (a long file: pieces on N threads; default every core)',
    'tazamun align --manifest FILE.jsonl --out-dir DIR [--jobs N] [same options]',
    'tazamun align --corpus DIR --out-dir DIR --lang CODE [--format F] [same options]',
    '              (MFA layout: spk/utt.wav + spk/utt.lab|.txt|.TextGrid; writes summary.csv)',
    '              [--model DIR]  (a model folder written by tazamun adapt)',
    'tazamun adapt --corpus DIR --lang CODE --out MODEL_DIR [--ipa] [--iterations N]',
    '              (the corpus in the MFA layout, as align --corpus reads it)',
    'tazamun export RESULT.json AUDIO --format readalong|epub|textgrid|… [-o OUT] [--title TITLE]',
    '              (a result or revision JSON downloaded from the platform; the EPUB needs -o)',
    'tazamun languages [--json]',
  ].join('\n');
}

/** Runs one command line (the arguments after `tazamun`); resolves with the exit code. */
export async function runCli(args: string[]): Promise<number> {
  const [cmd, ...rest] = args;
  if (!cmd || cmd === '-h' || cmd === '--help' || cmd === 'help') {
    console.log(usage());
    return cmd ? 0 : 2;
  }
  const entry = COMMANDS[cmd];
  if (!entry) {
    stderr.write(`unknown command "${cmd}"\n${usage()}\n`);
    return 2;
  }
  let mod: { run: (args: string[]) => Promise<number> };
  try {
    mod = await entry.load();
  } catch {
    stderr.write(`the "${cmd}" command is not available in this build\n`);
    return 2;
  }
  return mod.run(rest);
}
