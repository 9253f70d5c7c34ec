// The hostile-request catalogue (issue 12), item 16: npm audit cannot run here (the registry mirror
// refuses the bulk advisory endpoint), so what ships is pinned down instead. The production tree —
// what `npm ci` then `npm prune --omit=dev` leaves, as the image does — holds none of the known
// vulnerable development-only packages, and the image recipe really drops them.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../paths.ts';

interface NpmNode {
  version?: string;
  dependencies?: Record<string, NpmNode>;
}

/** name → versions of every package in the production tree, as npm resolves it from node_modules. */
async function productionTree(): Promise<Map<string, Set<string>>> {
  const run = promisify(execFile);
  // npm ls exits 1 on any peer or extraneous complaint; the JSON on stdout is complete either way
  const stdout = await run('npm', ['ls', '--omit=dev', '--all', '--json'], {
    cwd: PROJECT_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (r) => r.stdout,
    (err: { stdout?: string }) => err.stdout ?? '',
  );
  const seen = new Map<string, Set<string>>();
  const walk = (node: NpmNode): void => {
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      if (!seen.has(name)) seen.set(name, new Set());
      if (child.version) seen.get(name)!.add(child.version);
      walk(child);
    }
  };
  walk(JSON.parse(stdout) as NpmNode);
  return seen;
}

test('the production tree holds no development-only vulnerable package, and the image prunes them', async () => {
  const tree = await productionTree();
  // the server's own dependencies are there (the walk saw the real tree)
  for (const name of ['fastify', 'better-sqlite3', 'pg', 'jose', 'sharp', 'tsx'])
    assert.ok(tree.has(name), name);
  // s3rver (storage tests only) and fast-xml-parser 3.x (which it pulls: prototype pollution and ReDoS
  // advisories fixed in 4.x) never ship
  assert.equal(tree.has('s3rver'), false, 's3rver is in the production tree');
  const fxp = [...(tree.get('fast-xml-parser') ?? [])];
  assert.deepEqual(
    fxp.filter((v) => Number(v.split('.')[0]) < 4),
    [],
    `fast-xml-parser ${fxp.join(', ')}`,
  );
  // and the lock file marks both development-only, so --omit=dev drops them
  const lock = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; dev?: boolean }>;
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (
      path.endsWith('node_modules/s3rver') ||
      (path.endsWith('node_modules/fast-xml-parser') && entry.version?.startsWith('3.'))
    )
      assert.equal(entry.dev, true, `${path} ${entry.version} is not marked dev`);
  }
  // the image: dev packages pruned after the build; data, secrets and local packages never copied in
  const dockerfile = readFileSync(join(PROJECT_ROOT, 'deploy/Dockerfile'), 'utf8');
  assert.match(dockerfile, /npm ci && npm run build && npm prune --omit=dev/);
  const ignored = readFileSync(join(PROJECT_ROOT, '.dockerignore'), 'utf8').split('\n');
  for (const entry of ['node_modules', 'data', '.env', '**/*.sqlite'])
    assert.ok(ignored.includes(entry), entry);
});
