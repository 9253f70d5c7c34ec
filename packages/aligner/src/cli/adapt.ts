// `tazamun adapt --corpus DIR --lang CODE --out MODEL_DIR`: adapts the language's acoustic model to a
// corpus in Montreal Forced Aligner's layout (the one `align --corpus` reads) and writes the adapted
// model's folder, which `tazamun align --model MODEL_DIR` (and the platform) then align with.
import { join, resolve } from 'node:path';
import { pairCorpus } from '../corpus/corpus-layout.ts';
import { adaptModel } from '../acoustic/hmm/adapt/corpus.ts';
import { EngineError } from '../errors.ts';
import { SKIP_REASONS, transcriptOf, walk } from './align-corpus.ts';
import { parseArgs } from './args.ts';

export async function run(args: string[]): Promise<number> {
  const p = parseArgs(args);
  const root = p.values.corpus;
  const lang = p.values.lang;
  const out = p.values.o;
  if (!root || !lang || !out) {
    process.stderr.write(
      'usage: tazamun adapt --corpus DIR --lang CODE --out MODEL_DIR [--ipa] [--iterations N]\n',
    );
    return 2;
  }
  const iterations = p.values.iterations !== undefined ? Number(p.values.iterations) : undefined;
  if (iterations !== undefined && !(Number.isInteger(iterations) && iterations >= 1 && iterations <= 10))
    throw new Error('--iterations must be a whole number from 1 to 10');
  const layout = pairCorpus(walk(root));
  for (const s of layout.skipped) process.stderr.write(`skipped ${s.name}: ${SKIP_REASONS[s.reason]}\n`);
  const inputKind = p.values.ipa ? ('ipa' as const) : ('orthography' as const);
  const items = layout.pairs.map((pair) => ({
    audio: join(root, pair.audio),
    text: transcriptOf(root, pair),
    inputKind,
  }));
  let last = '';
  try {
    const r = await adaptModel(items, {
      lang,
      out: resolve(out),
      maxIterations: iterations,
      onProgress: (done, step) => {
        const line = `${Math.round(done * 100)} % ${step}`;
        if (line !== last && process.stderr.isTTY) process.stderr.write(`\r${line.padEnd(40)}`);
        last = line;
      },
    });
    if (process.stderr.isTTY) process.stderr.write('\n');
    for (const s of r.skipped) process.stderr.write(`skipped ${s.audio}: ${s.reason}\n`);
    const m = r.manifest;
    process.stdout.write(
      [
        `adapted model written to ${r.dir}`,
        `  base ${m.base}, language ${m.language}`,
        `  corpus ${m.corpus.recordings} recordings, ${m.corpus.seconds.toFixed(1)} s, ${m.corpus.frames} speech frames`,
        `  likelihood per frame ${m.iterations.map((i) => i.logLikelihood.toFixed(3)).join(' -> ')}`,
        `  ${m.moved} of ${m.gaussians} Gaussians moved`,
        `  phones of its own: ${m.extraPhones.length ? m.extraPhones.map((e) => `${e.ipa} (${e.phone}, from ${e.from})`).join(', ') : 'none'}`,
        '',
      ].join('\n'),
    );
    return 0;
  } catch (err) {
    if (err instanceof EngineError && err.input) {
      process.stderr.write(`${err.code}: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
