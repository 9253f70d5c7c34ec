// Peer: echogarden's aligner (its default `dtw` engine: eSpeak NG synthesis + DTW over MFCCs), warm in one
// process, imported from an installation outside the project (`--echogarden DIR`, the folder holding its
// node_modules). Usage: node echogarden.mjs DIR MANIFEST.json OUT_DIR
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { alignEach } from './child.mjs';

const [dir, manifest, outDir] = process.argv.slice(2);
const egDist = join(dir, 'node_modules', 'echogarden', 'dist');
// Echogarden fetches its eSpeak NG build from its own host on first use, which this machine cannot reach:
// it is given the same build from npm (@echogarden/espeak-ng-emscripten, a dependency of the project) in
// a private data folder, under the versioned name it asks for. HOME is read when the path is needed.
const pm = await import(pathToFileURL(join(egDist, 'utilities', 'PackageManager.js')).href);
const home = mkdtempSync(join(tmpdir(), 'tz-peer-eg-'));
const packages = join(home, '.local', 'share', 'echogarden', 'packages');
mkdirSync(packages, { recursive: true });
const espeak = dirname(
  createRequire(import.meta.url).resolve('@echogarden/espeak-ng-emscripten/package.json'),
);
symlinkSync(espeak, join(packages, pm.resolveToVersionedPackageNameIfNeeded('espeak-ng-emscripten')));
process.env.HOME = home;
const eg = await import(pathToFileURL(join(egDist, 'api', 'API.js')).href);
eg.setGlobalOption?.('logLevel', 'silent');
await alignEach(manifest, outDir, async (pcm, text) => {
  const r = await eg.align({ audioChannels: [pcm], sampleRate: 16000 }, text, {
    language: 'en',
    engine: 'dtw',
  });
  const collect = (ts) =>
    ts.flatMap((t) =>
      t.type === 'word' ? [{ word: t.text, start: t.startTime, end: t.endTime }] : collect(t.timeline ?? []),
    );
  return collect(r.wordTimeline ?? r.timeline ?? []);
});
