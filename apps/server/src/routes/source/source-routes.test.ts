import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PublicConfig } from '@tazamun/contracts/auth';
import { APP_VERSION } from '@tazamun/contracts/limits';
import { ConfigError, loadConfig } from '../../config.ts';
import type { AppDeps } from '../../context.ts';
import { registerErrorHandler } from '../../plugins/error-handler.ts';
import { createTestApp, expectError, testConfig } from '@tazamun/server/testing/test-app';
import { sourceRoutes } from './source-routes.ts';
import { PROJECT_ROOT } from '../../paths.ts';
import { listSourceFiles, streamSourceArchive } from './source-archive.ts';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), '../../server.ts');
const PREFIX = `tazamun-${APP_VERSION.replace(/^v/, '')}`;

/** Entry names of a .tar.gz, read by the system tar. */
function tarEntries(archive: Buffer): string[] {
  return execFileSync('tar', ['-tzf', '-'], { input: archive, maxBuffer: 64 * 1024 * 1024 })
    .toString('utf8')
    .split('\n')
    .filter(Boolean);
}

function tarFile(archive: Buffer, entry: string): Buffer {
  return execFileSync('tar', ['-xzOf', '-', entry], { input: archive, maxBuffer: 64 * 1024 * 1024 });
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

test('GET /api/source/ streams a gzipped tar of the running tree without packages, .git or data', async (t) => {
  const { app, dir, config } = await createTestApp(t);
  // something a user uploaded, and the database next to it: neither may ever be served
  mkdirSync(join(dir, 'files'), { recursive: true });
  writeFileSync(join(dir, 'files', 'upload-marker-7f3a.wav'), 'RIFF');
  const res = await app.inject({ url: '/api/source/' });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'application/gzip');
  assert.equal(res.headers['content-disposition'], 'attachment; filename="tazamun-source.tar.gz"');
  const archive = res.rawPayload;
  assert.deepEqual([...archive.subarray(0, 2)], [0x1f, 0x8b], 'gzip magic');
  const tar = gunzipSync(archive);
  assert.equal(tar.length % 512, 0, 'a tar is made of 512-byte blocks');
  assert.equal(tar.subarray(257, 262).toString('latin1'), 'ustar');

  const entries = tarEntries(archive);
  assert.ok(
    entries.every((e) => e.startsWith(`${PREFIX}/`)),
    'one top folder',
  );
  const names = entries.map((e) => e.slice(PREFIX.length + 1));
  for (const expected of [
    'package.json',
    'package-lock.json',
    'LICENSE',
    'README.md',
    'apps/server/src/app.ts',
    'apps/server/src/routes/source/source-archive.ts',
    'apps/web/src/app/layout/footer.tsx',
    'packages/contracts/package.json',
  ]) {
    assert.ok(names.includes(expected), `missing ${expected}`);
  }
  assert.deepEqual(
    tarFile(archive, `${PREFIX}/package.json`),
    readFileSync(join(PROJECT_ROOT, 'package.json')),
  );
  const parts = (n: string) => n.split('/');
  assert.deepEqual(
    names.filter((n) =>
      parts(n).some((p) => ['node_modules', '.git', 'dist', 'coverage', 'data'].includes(p)),
    ),
    [],
  );
  assert.deepEqual(
    names.filter((n) => /(^|\/)(\.env|secret|.*\.sqlite.*|\.npmrc)$/.test(n)),
    [],
  );
  assert.deepEqual(
    names.filter((n) => n.includes('upload-marker-7f3a') || n.startsWith('e2e/artifacts')),
    [],
  );
  assert.ok(!names.some((n) => n.endsWith('tazamun.sqlite')), String(config.database.file));

  // the web app learns where the source is from the public config
  const cfg = PublicConfig.parse((await app.inject({ url: '/api/config/' })).json());
  assert.equal(cfg.source_url, '/api/source/');
});

test('with SOURCE_URL set, /api/source/ redirects there and the public config names it', async (t) => {
  const url = 'https://git.example.org/tazamun/tazamun/-/tree/v1.0.0';
  const { app } = await createTestApp(t, { sourceUrl: url });
  const res = await app.inject({ url: '/api/source/' });
  assert.equal(res.statusCode, 302);
  assert.equal(res.headers.location, url);
  const cfg = PublicConfig.parse((await app.inject({ url: '/api/config/' })).json());
  assert.equal(cfg.source_url, url);
});

test('the source route is in the OpenAPI document; other methods are refused in the error contract', async (t) => {
  const { app } = await createTestApp(t);
  const doc = (await app.inject({ url: '/docs/json' })).json();
  assert.ok(doc.paths['/api/source/']?.get, 'GET /api/source/ documented');
  const post = await app.inject({ method: 'POST', url: '/api/source/' });
  expectError(post, 405, 'method_not_allowed');
  assert.equal(post.headers.allow, 'GET, HEAD');
});

test('SOURCE_URL must be an http(s) URL; a bad one is listed with the other bad variables', () => {
  assert.equal(
    loadConfig({ SOURCE_URL: 'https://example.org/src.tar.gz' }).sourceUrl,
    'https://example.org/src.tar.gz',
  );
  assert.equal(loadConfig({}).sourceUrl, null);
  assert.equal(loadConfig({ SOURCE_URL: '  ' }).sourceUrl, null);
  for (const bad of [
    'javascript:alert(1)',
    'file:///etc/passwd',
    'git@example.org:t/t.git',
    'https://',
    'example.org',
  ]) {
    assert.throws(
      () => loadConfig({ SOURCE_URL: bad, PORT: 'http' }),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.problems.some((p) => p.startsWith('SOURCE_URL:')) &&
        err.problems.some((p) => p.startsWith('PORT:')),
      bad,
    );
  }
});

test('the server refuses to start with a bad SOURCE_URL (exit 78, named)', async () => {
  const err = await promisify(execFile)(process.execPath, ['--import', 'tsx', SERVER], {
    env: { ...process.env, SOURCE_URL: 'javascript:alert(1)', AUTO_APPROVE: 'perhaps' },
  }).then(
    () => null,
    (e: { code: number; stderr: string }) => e,
  );
  assert.ok(err, 'the server started with a bad SOURCE_URL');
  assert.equal(err.code, 78);
  assert.match(err.stderr, /SOURCE_URL: must be an http:\/\/ or https:\/\/ URL/);
  assert.match(err.stderr, /AUTO_APPROVE:/);
});

test('only allow-listed top-level paths are packed; secrets, databases, DATA_DIR and links stay out', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'tazamun-source-test-'));
  const outside = mkdtempSync(join(tmpdir(), 'tazamun-source-outside-'));
  t.after(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  const put = (rel: string, text = 'x') => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  const kept = [
    'package.json',
    'LICENSE',
    'apps/server/src/app.ts',
    'docs/api.md',
    '.ci/run',
    'e2e/shell.spec.ts',
  ];
  for (const f of kept) put(f);
  const dropped = [
    '.env',
    'secret',
    'notes.txt', // not on the allow-list
    'data/tazamun.sqlite',
    '.git/config',
    'node_modules/zod/index.js',
    'apps/web/dist/index.html',
    'apps/web/node_modules/x/index.js',
    'apps/server/.env',
    'apps/server/prod.env',
    'apps/server/.env.production',
    'apps/server/store.sqlite-wal',
    'apps/server/tls/server.key',
    'apps/server/coverage/lcov.info',
    'apps/server/secret',
    'apps/state/uploads/a.wav', // DATA_DIR pointed inside the tree (below)
    'e2e/artifacts/shot.png',
    'packages/x/tsconfig.tsbuildinfo',
    '.npmrc',
  ];
  for (const f of dropped) put(f);
  writeFileSync(join(outside, 'private.txt'), 'user data');
  symlinkSync(join(outside, 'private.txt'), join(root, 'apps/link.txt'));
  symlinkSync(outside, join(root, 'docs/linked-dir'));

  const files = await listSourceFiles(root, [join(root, 'apps/state')]);
  assert.deepEqual(files, [...kept].sort());

  const archive = await collect(await streamSourceArchive(root, files, 'tazamun-test'));
  assert.deepEqual(tarEntries(archive).sort(), kept.map((f) => `tazamun-test/${f}`).sort());
});

test('a tree tar cannot pack is a clean 500 in the error contract, not a broken download', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tazamun-source-500-'));
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', { config: testConfig(dir) } as AppDeps);
  registerErrorHandler(app);
  // a root that vanished under the running server
  await app.register(sourceRoutes, { prefix: '/api/source', root: join(dir, 'gone') });
  t.after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const body = expectError(await app.inject({ url: '/api/source/' }), 500, 'internal_error');
  assert.ok(body.request_id);
});

test('a tar that cannot run fails before any byte is sent', async () => {
  // a file list naming nothing that exists: tar writes no archive worth sending and exits non-zero
  await assert.rejects(
    streamSourceArchive(join(tmpdir(), 'tazamun-no-such-dir'), ['package.json'], 'x'),
    /tar exited with 2/,
  );
});
