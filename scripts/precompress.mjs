// Brotli and gzip copies of the built web app's text assets, written beside each file at build time
// (`name.js.br`, `name.js.gz`), so the server sends them as they are (@fastify/static's preCompressed,
// plugins/web-app.ts) instead of compressing on every request or not at all. A copy is kept only when
// it is smaller than the file by a useful margin; already compressed formats (images, woff2) are left.
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|ttf|otf|ico|wasm)$/i;
const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function files(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await files(p)));
    else out.push(p);
  }
  return out;
}

/** Compresses every text asset under `dir`; returns the bytes before and after (brotli) for a report. */
export async function precompress(dir) {
  const all = await files(dir);
  // copies left by an earlier build of files that are gone
  for (const f of all.filter((f) => /\.(br|gz)$/.test(f)))
    if (!all.includes(f.replace(/\.(br|gz)$/, ''))) await rm(f, { force: true });
  const targets = all.filter((f) => COMPRESSIBLE.test(f));
  let before = 0;
  let after = 0;
  await Promise.all(
    targets.map(async (file) => {
      const body = await readFile(file);
      before += body.length;
      if (body.length < MIN_BYTES) {
        await Promise.all([rm(`${file}.br`, { force: true }), rm(`${file}.gz`, { force: true })]);
        after += body.length;
        return;
      }
      const [br, gzipped] = await Promise.all([
        brotli(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            [constants.BROTLI_PARAM_MODE]: /\.(ttf|otf|ico|wasm)$/i.test(file)
              ? constants.BROTLI_MODE_GENERIC
              : constants.BROTLI_MODE_TEXT,
          },
        }),
        gz(body, { level: 9 }),
      ]);
      for (const [suffix, data] of [
        ['.br', br],
        ['.gz', gzipped],
      ]) {
        if (data.length < body.length * 0.9) await writeFile(`${file}${suffix}`, data);
        else await rm(`${file}${suffix}`, { force: true });
      }
      after += Math.min(br.length, body.length);
    }),
  );
  return { files: targets.length, before, after };
}
