// The web app as browsers get it (issue 29, item 12): a bundle laid out as vite builds it and compressed
// by the build's own step (scripts/precompress.mjs), served by the app. A browser that accepts brotli
// gets the .br copy, one that accepts only gzip the .gz copy, one that accepts neither the file itself;
// each decodes to the same bytes. Hashed assets are cached for a year as immutable, index.html (also
// through the SPA fallback) is revalidated every time, the rest for an hour.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompress } from '../../../../scripts/precompress.mjs';
import { createTestApp } from '@tazamun/server/testing/test-app';
import { tempDir } from '@tazamun/server/testing/jobs-test-app';
import { IMMUTABLE, HOUR, REVALIDATE } from './web-app.ts';

function fakeBundle(dir: string): { js: Buffer; html: string } {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  // script-like text that compresses as real bundles do
  const js = Buffer.from(
    Array.from(
      { length: 400 },
      (_, i) => `export function f${i}(a){return a*${i}+"tazamun ${i % 7}";}\n`,
    ).join(''),
  );
  const html =
    '<!doctype html><html><head><script type="module" src="/assets/index-AbCd12_-.js"></script></head>' +
    `<body><div id="root"></div>${'<!-- padding so the page is worth compressing -->'.repeat(40)}</body></html>`;
  writeFileSync(join(dir, 'assets/index-AbCd12_-.js'), js);
  writeFileSync(join(dir, 'index.html'), html);
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return { js, html };
}

test('precompressed assets by Accept-Encoding, with long caching of hashed files', async (t) => {
  const dist = join(tempDir(t), 'dist');
  const { js, html } = fakeBundle(dist);
  const report = await precompress(dist);
  assert.equal(report.files, 3);
  assert.ok(report.after < report.before / 3, JSON.stringify(report));
  // a tiny file is not worth a copy
  assert.deepEqual(
    ['favicon.svg.br', 'favicon.svg.gz', 'index.html.br', 'assets/index-AbCd12_-.js.br'].map((f) => {
      try {
        readFileSync(join(dist, f));
        return true;
      } catch {
        return false;
      }
    }),
    [false, false, true, true],
  );

  const { app } = await createTestApp(t, { webDist: dist });
  const get = (url: string, encoding?: string) =>
    app.inject({ url, headers: encoding ? { 'accept-encoding': encoding } : {} });

  const br = await get('/assets/index-AbCd12_-.js', 'gzip, deflate, br');
  assert.equal(br.statusCode, 200);
  assert.equal(br.headers['content-encoding'], 'br');
  assert.match(String(br.headers['content-type']), /javascript/);
  assert.match(String(br.headers.vary), /accept-encoding/i);
  assert.equal(br.headers['cache-control'], IMMUTABLE);
  assert.ok(br.rawPayload.length < js.length / 3);
  assert.deepEqual(brotliDecompressSync(br.rawPayload), js);

  const gz = await get('/assets/index-AbCd12_-.js', 'gzip');
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.deepEqual(gunzipSync(gz.rawPayload), js);

  const plain = await get('/assets/index-AbCd12_-.js');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.deepEqual(plain.rawPayload, js);
  assert.equal(plain.headers['cache-control'], IMMUTABLE);

  // index.html, asked for by name and as the page of any app route: compressed and revalidated
  for (const url of ['/index.html', '/', '/dashboard']) {
    const page = await get(url, 'br');
    assert.equal(page.statusCode, 200, url);
    assert.equal(page.headers['content-encoding'], 'br', url);
    assert.equal(brotliDecompressSync(page.rawPayload).toString(), html, url);
    assert.equal(page.headers['cache-control'], REVALIDATE, url);
  }
  const icon = await get('/favicon.svg', 'br');
  assert.equal(icon.headers['content-encoding'], undefined);
  assert.equal(icon.headers['cache-control'], HOUR);
  // an asset that is not there is a 404, not the page
  assert.equal((await get('/assets/gone-12345678.js', 'br')).statusCode, 404);
});
