// Peer: pocketsphinx 5's own forced alignment (ps_set_align_text, then the word alignment), through
// soundswallower, the npm build of the same C decoder in WASM, with its bundled en-us model and dictionary.
// No garbage path, no recognition pass, no refinement: the baseline a user gets from `pocketsphinx align`.
// Usage: node pocketsphinx.mjs MANIFEST.json OUT_DIR   (manifest: [{uid, audio, text}])
import { join, dirname } from 'node:path';
import { createRequire } from 'node:module';
import createModule from 'soundswallower';
import { alignEach } from './child.mjs';

const [manifest, outDir] = process.argv.slice(2);
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
const known = (w) => {
  try {
    return Boolean(decoder.lookup_word(w));
  } catch {
    return false;
  }
};
await alignEach(manifest, outDir, (pcm, transcript) => {
  // pocketsphinx lower-cases and drops what its dictionary lacks only if told; give it dictionary words
  const text = transcript
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
  return (a.w ?? [])
    .filter((w) => !/^(<s>|<\/s>|<sil>|\[NOISE\])$/i.test(w.t))
    .map((w) => ({ word: w.t.replace(/\(\d+\)$/, ''), start: w.b, end: w.b + w.d }));
});
