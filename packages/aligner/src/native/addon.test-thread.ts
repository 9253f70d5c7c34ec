// The thread of addon.test.ts: the native module's Gaussian kernel and spectra without pause, with no
// native-guard.ts count around them.
import { parentPort } from 'node:worker_threads';
import { nativeAddon } from './addon.ts';

const addon = nativeAddon()!;
const [nCb, nD, len] = [42, 128, 13];
const lens = Int32Array.from([len, len, len]);
const means = new Float32Array(nCb * nD * 3 * len).map((_, i) => Math.sin(i));
const variances = new Float32Array(means.length).map((_, i) => 0.5 + Math.abs(Math.cos(i)));
const model = addon.createModel(means, variances, nCb, nD, lens, 16);
const nFrames = 400;
const streams = [0, 1, 2].map((f) => new Float32Array(nFrames * len).map((_, i) => Math.sin(i * (f + 2))));
const ll = new Float32Array(nFrames * 3 * nCb * 4);
const cw = new Uint8Array(ll.length);
const dens = new Uint8Array(ll.length);
const half = 256;
const cos = Float64Array.from({ length: half }, (_, i) => Math.cos((2 * Math.PI * i) / 512));
const sin = Float64Array.from({ length: half }, (_, i) => Math.sin((2 * Math.PI * i) / 512));
const fe = addon.createFrontEnd(
  410,
  160,
  512,
  0.97,
  new Float64Array(410).fill(1),
  cos,
  sin,
  new Uint16Array(0),
  Int32Array.from([1, 5]),
  [new Float64Array(4).fill(0.5), new Float64Array(8).fill(0.25)],
);
const samples = new Float32Array(16000 * 5).map((_, i) => Math.sin(i / 7) * 0.1);
const spectra = new Float64Array(600 * 2);
parentPort?.postMessage('running');
for (;;) {
  addon.topN(model, streams, nFrames, ll, cw, dens, Math.log(1.0001), 96);
  addon.melSpectra(fe, samples, 499, spectra);
}
