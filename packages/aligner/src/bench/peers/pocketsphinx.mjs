// Peer: pocketsphinx 5's own forced alignment (ps_set_align_text, then the word alignment), through
// soundswallower, the npm build of the same C decoder in WASM, with its bundled en-us model and dictionary.
// No garbage path, no recognition pass, no refinement: the baseline a user gets from `pocketsphinx align`.
// Usage: node pocketsphinx.mjs MANIFEST.json OUT_DIR   (manifest: [{uid, audio, text}])
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import createModule from 'soundswallower';
import { readWav16k, report } from './wav16.mjs';

const [manifest, outDir] = process.argv.slice(2);
const items = JSON.parse(readFileSync(manifest, 'utf8'));
const models = join(dirname(createRequire(import.meta.url).resolve('soundswallower')), 'model');
const ss = await createModule();
const decoder = new ss.Decoder({
  hmm: join(models, 'en-us'),
  dict: join(models, 'en-us', 'dict.txt'),
  featparams: join(models, 'en-us', 'feat_params.json'),
  samprate: 16000,
  loglevel: 'FATAL',
});
await decoder.initialize();
const ready = performance.now() / 1000;
const known = (w) => {
  try {
    return Boolean(decoder.lookup_word(w));
  } catch {
    return false;
  }
};
const perFile = [];
let failed = 0;
for (const it of items) {
  const t0 = performance.now();
  const pcm = readWav16k(it.audio);
  let words = [];
  try {
    // pocketsphinx lower-cases and drops what its dictionary lacks only if told; give it dictionary words
    const text = it.text
      .toLowerCase()
      .replace(/[^a-z' ]+/g, ' ')
      .split(/\s+/)
      .filter(known)
      .join(' ');
    decoder.set_align_text(text);
    decoder.start();
    decoder.process_audio(pcm, false, true);
    decoder.stop();
    const a = decoder.get_alignment({ align_level: 0 });
    words = (a.w ?? [])
      .filter((w) => !/^(<s>|<\/s>|<sil>|\[NOISE\])$/i.test(w.t))
      .map((w) => ({ word: w.t.replace(/\(\d+\)$/, ''), start: w.b, end: w.b + w.d }));
  } catch {
    failed++;
  }
  writeFileSync(join(outDir, `${it.uid}.json`), JSON.stringify({ words }));
  perFile.push((performance.now() - t0) / 1000);
}
report({ startup: ready, perFile, failed });
