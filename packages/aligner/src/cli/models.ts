// `tazamun models list` and `tazamun models pull <id> [--fp32] [--force]`.
import { MODELS, availableEngines, findInstalled, hubEndpoint, modelsDir } from '../models/registry.ts';
import type { ModelId } from '../models/registry.ts';
import { ModelPullError, pullModel } from '../models/pull.ts';
import type { PullProgress } from '../models/pull.ts';

export interface CliIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

const USAGE = [
  'usage: tazamun models list [--json]',
  '       tazamun models pull mms [--fp32] [--force]',
  '',
  `models directory: $TAZAMUN_MODELS_DIR (default ~/.cache/tazamun/models); hub: $TAZAMUN_HF_ENDPOINT`,
].join('\n');

const mb = (n: number): string => `${(n / 1e6).toFixed(1)} MB`;

/** A one-line progress bar, redrawn in place on a terminal and printed every 10 % otherwise. */
export function progressPrinter(stderr: CliIo['stderr']): (p: PullProgress) => void {
  const t0 = Date.now();
  let lastFile = '';
  let lastDecile = -1;
  return (p) => {
    const frac = p.total ? p.received / p.total : 0;
    const rate = (p.received - p.resumedFrom) / Math.max(0.001, (Date.now() - t0) / 1000);
    const width = 30;
    const bar = '#'.repeat(Math.round(frac * width)).padEnd(width, '.');
    const line =
      `${p.file} [${bar}] ${p.total ? `${(frac * 100).toFixed(0).padStart(3)} %` : ''} ` +
      `${mb(p.received)}${p.total ? ` / ${mb(p.total)}` : ''} ${mb(rate)}/s` +
      (p.resumedFrom ? ` (resumed at ${mb(p.resumedFrom)})` : '');
    if (stderr.isTTY) {
      stderr.write(`\r${line}${p.total && p.received >= p.total ? '\n' : ''}`);
      return;
    }
    const decile = Math.floor(frac * 10);
    if (p.file !== lastFile || decile !== lastDecile) stderr.write(`${line}\n`);
    lastFile = p.file;
    lastDecile = decile;
  };
}

export async function runModels(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'list') {
    const engines = availableEngines(io.env);
    if (rest.includes('--json')) {
      io.stdout.write(`${JSON.stringify({ dir: modelsDir(io.env), engines }, null, 2)}\n`);
      return 0;
    }
    io.stdout.write(`models directory: ${modelsDir(io.env)}\n`);
    for (const e of engines)
      io.stdout.write(`${e.id.padEnd(5)} ${e.available ? 'installed ' : 'missing   '} ${e.detail}\n`);
    const mms = findInstalled('mms', io.env);
    if (mms?.manifest) {
      io.stdout.write(
        `      ${mms.manifest.files.length} files, ${mb(mms.size)}, pulled ${mms.manifest.pulledAt}\n`,
      );
    }
    return 0;
  }
  if (sub === 'pull') {
    const id = rest.find((a) => !a.startsWith('--'));
    if (!id || !(id in MODELS)) {
      io.stderr.write(
        `unknown model ${JSON.stringify(id ?? '')}: one of ${Object.keys(MODELS).join(', ')}\n${USAGE}\n`,
      );
      return 2;
    }
    const spec = MODELS[id as ModelId];
    const variant = rest.includes('--fp32') ? 'fp32' : 'quantized';
    io.stderr.write(
      `pulling ${spec.repo} (${variant}) from ${hubEndpoint(io.env)} into ${modelsDir(io.env)}/${id}\n`,
    );
    io.stderr.write(`licence: ${spec.licence}\n`);
    try {
      const r = await pullModel(id as ModelId, {
        variant,
        env: io.env,
        force: rest.includes('--force'),
        onProgress: progressPrinter(io.stderr),
      });
      io.stdout.write(
        `installed ${id} in ${r.dir}: ${r.downloaded.length} downloaded, ${r.skipped.length} already present\n`,
      );
      return 0;
    } catch (err) {
      if (err instanceof ModelPullError) {
        io.stderr.write(`tazamun models pull: ${err.message}\n`);
        return 1;
      }
      throw err;
    }
  }
  io.stderr.write(`${USAGE}\n`);
  return sub === undefined || sub === '--help' || sub === '-h' ? 0 : 2;
}

/** Entry for the CLI dispatcher (src/cli/run-cli.ts). */
export function run(args: string[]): Promise<number> {
  return runModels(args, { stdout: process.stdout, stderr: process.stderr, env: process.env });
}
